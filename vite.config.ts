import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { precompressDir } from "./scripts/precompress.ts";

/** After the build, writes .br and .gz copies of the text assets for the server to send. */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    target: "es2022",
  },
  server: {
    proxy: { "/api": `http://127.0.0.1:${process.env.API_PORT ?? 5001}` },
  },
});
