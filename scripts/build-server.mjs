// Bundles the server's TypeScript into plain JavaScript; npm packages stay external. The Whisper
// engine is its own entry: it runs in a child process beside main.js (whisper-transcriber.ts).
import { build } from "esbuild";

await build({
  entryPoints: {
    main: "src/server/main.ts",
    "whisper-engine": "src/server/ai/whisper/whisper-engine.ts",
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
