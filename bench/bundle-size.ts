/**
 * Initial JavaScript of the home page, gzip: every script index.html loads or preloads, against
 * the 130 kB budget. Run after `npm run build`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 130;
const dist = path.resolve("dist/client");
const html = await readFile(path.join(dist, "index.html"), "utf8");
const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? "");
let total = 0;
const lines: string[] = [];
for (const script of new Set(scripts)) {
  const bytes = await readFile(path.join(dist, script));
  const gz = gzipSync(bytes, { level: 9 }).length;
  total += gz;
  lines.push(`  ${script}: ${(gz / 1024).toFixed(1)} kB gzip`);
}
process.stdout.write(
  `home page initial JS: ${(total / 1024).toFixed(1)} kB gzip (budget ${BUDGET_KB} kB) ${total / 1024 <= BUDGET_KB ? "OK" : "OVER BUDGET"}\n${lines.join("\n")}\n`,
);
