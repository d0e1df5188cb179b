// `npm install` and `npm start` run this first, so an older Node stops with one line instead of a
// crash inside a native module. Plain enough for any Node that reads an ES module.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`Node 22.12 or later is needed (this is Node ${process.versions.node}).`);
  process.exit(1);
}
