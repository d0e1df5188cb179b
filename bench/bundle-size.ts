/**
 * Initial JavaScript of the home page, gzip: every script index.html loads or preloads, against
 * the budget. Run after `npm run build`; e2e/bundle-budget.test.ts holds the line in CI.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { readRoutePreloads } from "../src/server/route-preloads";

/**
 * Issue 18's 130 kB, lowered to hold ADR 0032's gain (103 kB then): every kilobyte of it is parsed
 * and run before the logged-in home page answers a tap, under Lighthouse's fourfold CPU slowdown.
 */
export const INITIAL_JS_BUDGET_KB = 105;

/**
 * Script files index.html loads or preloads: the app's first screen and React DOM (ADR 0034). On a
 * phone's connection each file is a request of its own, and a dozen small ones cost more round trips
 * than their bytes (Lighthouse's simulated 150 ms each, six at a time).
 */
export const INITIAL_SCRIPT_FILES_BUDGET = 2;

/**
 * What a memory's page adds to the initial scripts, before it paints (its screen's preloads, ADR
 * 0030): a visitor of a shared link waits for all of it. The owner's dialogs are fetched when opened.
 */
export const MEMORY_SCREEN_JS_BUDGET_KB = 16;

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

/** The scripts the memory page's HTML links besides index.html's own, gzip. */
export async function measureMemoryScreenJs(
  dist = path.resolve("dist/client"),
): Promise<{ totalKb: number; scripts: { path: string; kb: number }[] }> {
  const initial = new Set((await measureInitialJs(dist)).scripts.map((s) => s.path));
  const preloads = (await readRoutePreloads(dist)).get("memory") ?? [];
  const scripts: { path: string; kb: number }[] = [];
  for (const script of preloads.filter((file) => !initial.has(file))) {
    const bytes = await readFile(path.join(dist, script));
    scripts.push({ path: script, kb: gzipSync(bytes, { level: 9 }).length / 1024 });
  }
  return { totalKb: scripts.reduce((sum, s) => sum + s.kb, 0), scripts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { totalKb, scripts } = await measureInitialJs();
  const verdict = totalKb <= INITIAL_JS_BUDGET_KB ? "OK" : "OVER BUDGET";
  const filesVerdict = scripts.length <= INITIAL_SCRIPT_FILES_BUDGET ? "OK" : "OVER BUDGET";
  process.stdout.write(
    `home page initial JS: ${totalKb.toFixed(1)} kB gzip (budget ${INITIAL_JS_BUDGET_KB} kB) ${verdict}; ${scripts.length} files (budget ${INITIAL_SCRIPT_FILES_BUDGET}) ${filesVerdict}\n${scripts.map((s) => `  ${s.path}: ${s.kb.toFixed(1)} kB gzip`).join("\n")}\n`,
  );
  const screen = await measureMemoryScreenJs();
  const screenVerdict = screen.totalKb <= MEMORY_SCREEN_JS_BUDGET_KB ? "OK" : "OVER BUDGET";
  process.stdout.write(
    `memory page's own JS: ${screen.totalKb.toFixed(1)} kB gzip in ${screen.scripts.length} files (budget ${MEMORY_SCREEN_JS_BUDGET_KB} kB) ${screenVerdict}\n`,
  );
}
