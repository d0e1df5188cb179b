// Bundles the server's TypeScript into plain JavaScript; npm packages stay external. The Whisper
// engine is its own entry: it runs in a child process beside main.js (whisper-transcriber.ts), and
// so is the SQLite read worker, a worker thread beside main.js (sqlite-read-pool.ts).
import { build } from "esbuild";

await build({
  entryPoints: {
    main: "src/server/main.ts",
    "whisper-engine": "src/server/ai/whisper/whisper-engine.ts",
    "sqlite-read-worker": "src/server/db/sqlite-read-worker.js",
  },
  outdir: "dist/server",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
