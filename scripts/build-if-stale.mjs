// `npm start` runs this before the server: it builds only when the build is missing or older than
// what it is built from, so a restart (a service manager's, an upgrade's second start) does not
// pay for a build. Run from the project folder.
// First, so an older Node stops with one line before anything else runs.
import "./check-node.mjs";
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What the build reads, besides node_modules (which package-lock.json stands for). */
const SOURCES = [
  "src",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "vite.config.ts",
  "scripts/build-server.mjs",
  "scripts/precompress.ts",
];

/** The last file each half of `npm run build` writes: an interrupted build leaves one missing or old. */
const OUTPUTS = ["dist/client/.vite/manifest.json", "dist/server/main.js"];

/** Tests are not part of the build: editing one needs no rebuild. */
const NOT_BUILT = /\.test\.[cm]?[jt]sx?$/;

/** The newest file under `entry` (a file or a folder), or null when there is none. */
function newest(entry) {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return null;
  }
  if (!stat.isDirectory()) {
    return NOT_BUILT.test(entry) ? null : { file: entry, mtimeMs: stat.mtimeMs };
  }
  let found = null;
  for (const name of readdirSync(entry)) {
    const candidate = newest(path.join(entry, name));
    if (candidate && (!found || candidate.mtimeMs > found.mtimeMs)) found = candidate;
  }
  return found;
}

/** Why the build in `root` must be made again, or null when it is up to date. */
function staleReason(root) {
  let builtAt = Number.POSITIVE_INFINITY;
  for (const output of OUTPUTS) {
    const built = newest(path.join(root, output));
    if (!built) return `no build yet (${output} is missing)`;
    builtAt = Math.min(builtAt, built.mtimeMs);
  }
  for (const source of SOURCES) {
    const changed = newest(path.join(root, source));
    if (changed && changed.mtimeMs > builtAt) {
      return `${path.relative(root, changed.file)} changed since the last build`;
    }
  }
  return null;
}

const reason = staleReason(process.cwd());
if (reason) {
  process.stdout.write(`Building: ${reason}.\n`);
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  process.exit(build.status ?? 1);
}
