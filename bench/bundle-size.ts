/**
 * Initial JavaScript of the home page, gzip: every script index.html loads or preloads, against
 * the budget. Run after `npm run build`; e2e/bundle-budget.test.ts holds the line in CI.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * A tripwire, not a goal (ADR 0053): the first download with zod's schemas, the error catalogue
 * and the home page's components (the question prompt's choice, the recorder's pause, the open
 * journal and its switcher) measured 161.1 kB; the seven languages (ICU messages, the choice of
 * language before the first render, the footer's switcher) brought it to 166.4 kB, a language's
 * own words loading as a chunk of their own. Other screens, dialogs and the MP3 encoder load when
 * needed.
 */
export const INITIAL_JS_BUDGET_KB = 170;

/**
 * A page in another language first loads that language's words (15 to 17 kB gzip measured, the
 * weekly questions a third of it): a tripwire for the browser's catalogues growing unnoticed.
 */
export const LANGUAGE_WORDS_BUDGET_KB = 20;

export async function measureInitialJs(
  dist = path.resolve("dist/client"),
): Promise<{ totalKb: number; scripts: { path: string; kb: number }[] }> {
  const html = await readFile(path.join(dist, "index.html"), "utf8");
  const paths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? "");
  const scripts: { path: string; kb: number }[] = [];
  for (const script of new Set(paths)) {
    const bytes = await readFile(path.join(dist, script));
    scripts.push({ path: script, kb: gzipSync(bytes, { level: 9 }).length / 1024 });
  }
  return { totalKb: scripts.reduce((sum, s) => sum + s.kb, 0), scripts };
}

/**
 * A language's own words, the chunk a page in that language loads before it renders (found
 * through the build's manifest), in kB gzip.
 */
export async function measureLanguageKb(
  language: string,
  dist = path.resolve("dist/client"),
): Promise<number> {
  const manifest = JSON.parse(
    await readFile(path.join(dist, ".vite", "manifest.json"), "utf8"),
  ) as Record<string, { file: string }>;
  const entry = Object.entries(manifest).find(([source]) =>
    source.endsWith(`/i18n/locales/${language}.json`),
  );
  if (!entry) throw new Error(`no chunk for ${language} in the build`);
  return gzipSync(await readFile(path.join(dist, entry[1].file)), { level: 9 }).length / 1024;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { totalKb, scripts } = await measureInitialJs();
  const spanish = await measureLanguageKb("es");
  process.stdout.write(
    `in Spanish: ${(totalKb + spanish).toFixed(1)} kB gzip (its words ${spanish.toFixed(1)} kB)\n`,
  );
  const verdict = totalKb <= INITIAL_JS_BUDGET_KB ? "OK" : "OVER BUDGET";
  process.stdout.write(
    `home page initial JS: ${totalKb.toFixed(1)} kB gzip in ${scripts.length} files (budget ${INITIAL_JS_BUDGET_KB} kB) ${verdict}\n${scripts.map((s) => `  ${s.path}: ${s.kb.toFixed(1)} kB gzip`).join("\n")}\n`,
  );
}
