// `npm install` runs this first, and `npm start` through build-if-stale.mjs, so an older Node stops
// with one line instead of a crash inside a native module. Plain enough for any Node with ES modules.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`Node 22.12 or later is needed (this is Node ${process.versions.node}).`);
  process.exit(1);
}
