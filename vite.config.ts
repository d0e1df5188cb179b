import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { precompressDir } from "./scripts/precompress.ts";
import { APP_CATALOGUES } from "./src/shared/i18n/catalogues.ts";
import { directionOf, LANGUAGES, SOURCE_LANGUAGE } from "./src/shared/i18n/languages.ts";
import { MESSAGES } from "./src/shared/messages.ts";

/**
 * A step run on the written build, after every other plugin's closeBundle: the service worker
 * vite-plugin-pwa writes there is in place (and compressed too; Workbox never sees the copies).
 */
function afterBuild(name: string, step: (outDir: string) => Promise<unknown>): Plugin {
  let outDir = "";
  return {
    name,
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        await step(outDir);
      },
    },
  };
}

/**
 * A language's file as the browser loads it holds only the browser's catalogues: the words of
 * mails, the book and the card stay on the server, and each language's chunk stays small.
 */
function browserWordsOnly(): Plugin {
  const names = new Set(Object.keys(APP_CATALOGUES));
  return {
    name: "browser-words-only",
    enforce: "pre",
    transform(code, id) {
      if (!/\/src\/shared\/i18n\/locales\/[^/]+\.json$/.test(id.split("?")[0] ?? "")) return;
      const words = JSON.parse(code) as Record<string, unknown>;
      return {
        code: JSON.stringify(
          Object.fromEntries(Object.entries(words).filter(([name]) => names.has(name))),
        ),
        map: null,
      };
    },
  };
}

/**
 * The installed app's name and purpose in each language: `manifest-<lang>.webmanifest` beside
 * the English one, which a page speaking that language links instead (src/client/lib/language.ts).
 */
async function writeTranslatedManifests(outDir: string): Promise<void> {
  const english = JSON.parse(await readFile(path.join(outDir, "manifest.webmanifest"), "utf8"));
  for (const language of LANGUAGES.filter((l) => l !== SOURCE_LANGUAGE)) {
    const file = new URL(`./src/shared/i18n/locales/${language}.json`, import.meta.url);
    const words = JSON.parse(await readFile(file, "utf8")).MESSAGES ?? {};
    const manifest = {
      ...english,
      name: words.appTitle ?? english.name,
      short_name: words.appShortName ?? english.short_name,
      description: words.appDescription ?? english.description,
      lang: language,
      dir: directionOf(language),
    };
    await writeFile(
      path.join(outDir, `manifest-${language}.webmanifest`),
      JSON.stringify(manifest),
    );
  }
}

/**
 * The installable app (ADR 0016): a web app manifest and a Workbox service worker that precaches the
 * app shell (index.html without a user, every script, style, icon and the MP3 encoder's wasm) so the
 * app opens and records with no connection. Pages are asked from the network first, since the server
 * embeds the session user in them; only when the network fails is the cached shell shown, and it
 * asks GET /api/user itself. /api is never cached. The page registers the worker itself once loaded
 * (src/client/features/app-update), and asks before switching to a new version.
 */
function installableApp(): Plugin[] {
  return VitePWA({
    registerType: "prompt",
    injectRegister: false,
    strategies: "generateSW",
    manifest: {
      id: "/",
      name: MESSAGES.appTitle,
      short_name: MESSAGES.appShortName,
      description: MESSAGES.appDescription,
      lang: "en",
      start_url: "/",
      scope: "/",
      display: "standalone",
      orientation: "portrait",
      background_color: "#f5f3ff",
      theme_color: "#7c3aed",
      icons: [
        { src: "/pwa-192x192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/pwa-512x512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        {
          src: "/maskable-icon-512x512.png",
          sizes: "512x512",
          type: "image/png",
          purpose: "maskable",
        },
      ],
    },
    // The glob below already takes every icon; listing them again would precache them twice.
    includeManifestIcons: false,
    workbox: {
      globPatterns: ["**/*.{js,css,html,svg,png,wasm}"],
      // No cache-first fallback for pages: the route below asks the network first.
      navigateFallback: null,
      // Workbox would otherwise answer a navigation to `/` with the precached `index.html` (its
      // directory index): the home page would lose the user and question the server embeds in it.
      directoryIndex: "",
      runtimeCaching: [
        {
          // Serialised into the service worker, so it must not use anything from this file.
          urlPattern: ({ request, url }) =>
            request.mode === "navigate" && !url.pathname.startsWith("/api/"),
          handler: "NetworkOnly",
          options: { precacheFallback: { fallbackURL: "index.html" } },
        },
      ],
      cleanupOutdatedCaches: true,
    },
  });
}

export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [
    react(),
    tailwindcss(),
    browserWordsOnly(),
    installableApp(),
    afterBuild("translated-manifests", writeTranslatedManifests),
    // Last: .br and .gz copies, for the server, of the text assets the build wrote.
    afterBuild("precompress", precompressDir),
  ],
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    // .vite/manifest.json is the client build's last file: scripts/build-if-stale.mjs looks for it.
    manifest: true,
    target: "es2022",
  },
  server: {
    proxy: { "/api": `http://127.0.0.1:${process.env.API_PORT ?? 5001}` },
  },
});
