/**
 * Lighthouse (mobile preset, Debian Chromium) on the home page (as a visitor and logged in) and a
 * seeded memory page of the built app, started as the README says. Prints the median performance
 * and accessibility scores of LIGHTHOUSE_RUNS runs (default 3) beside the targets: performance
 * >= 90 on a quiet machine (median), accessibility 100.
 * Run after `npm run build`. LIGHTHOUSE_REPORT_DIR=folder also keeps each run's full JSON report
 * there (for its diagnostics: bootup-time, long tasks, the LCP element). LIGHTHOUSE_PAGES=slug,slug
 * runs only those pages (home-visitor, memory-visitor, home-logged-in). LIGHTHOUSE_ENTRY=path/main.js
 * runs another build's server (e.g. a copy of dist/ built from another commit), to compare two
 * builds run for run on the same machine. LIGHTHOUSE_LANGUAGE=es runs the pages in that language
 * (the browser's language, and the logged-in owner's setting), which loads its words as a chunk.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ApiClient } from "../e2e/api-client";
import { seedMemory } from "../e2e/fixtures";
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from "../e2e/harness";
import type { Memory } from "../src/shared/schemas";

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const LANGUAGE = process.env.LIGHTHOUSE_LANGUAGE ?? "en";
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(",").map((slug) => slug.trim());
const TARGETS = { performance: 90, accessibility: 100 } as const;
const print = (line: string) => process.stdout.write(`${line}\n`);

interface Scores {
  performance: number;
  accessibility: number;
  /** The metrics behind the performance score, as Lighthouse displays them. */
  metrics: string;
}

const METRICS = {
  "first-contentful-paint": "FCP",
  "largest-contentful-paint": "LCP",
  "total-blocking-time": "TBT",
  "cumulative-layout-shift": "CLS",
  "speed-index": "SI",
} as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** One Lighthouse run through its CLI (the default config is the mobile preset). */
function lighthouse(url: string, cookie?: string, reportName?: string): Promise<Scores> {
  const bin = path.resolve("node_modules/.bin/lighthouse");
  const args = [
    url,
    "--only-categories=performance,accessibility",
    "--output=json",
    "--output-path=stdout",
    "--quiet",
    `--chrome-flags=${[...CHROMIUM_ARGS, `--lang=${LANGUAGE}`].join(" ")}`,
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      env: { ...process.env, CHROME_PATH: CHROMIUM_PATH },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited ${code}: ${err.slice(-2000)}`));
      if (REPORT_DIR && reportName) {
        mkdirSync(REPORT_DIR, { recursive: true });
        writeFileSync(path.join(REPORT_DIR, `${reportName}.json`), out);
      }
      const report = JSON.parse(out) as {
        runtimeError?: { message: string };
        categories: Record<string, { score: number | null }>;
        audits: Record<string, { displayValue?: string }>;
      };
      if (report.runtimeError) return reject(new Error(report.runtimeError.message));
      const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
      const metrics = Object.entries(METRICS)
        .map(([id, label]) => `${label} ${report.audits[id]?.displayValue ?? "?"}`)
        .join(", ");
      resolve({
        performance: score("performance"),
        accessibility: score("accessibility"),
        metrics,
      });
    });
  });
}

/**
 * Lighthouse sometimes fails to record a page load's trace (NO_NAVSTART) in headless Chromium; such a
 * run is tried again, at most twice, and said. Any other failure ends the bench.
 */
async function withRetry(run: () => Promise<Scores>): Promise<Scores> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt > 2 || !String(error).includes("NO_NAVSTART")) throw error;
      print(`  (a run did not record its trace, NO_NAVSTART: tried again)`);
    }
  }
}

if (!existsSync("dist/server/main.js")) {
  throw new Error("dist/ is missing: run `npm run build` first");
}
const server = await startServer({}, undefined, process.env.LIGHTHOUSE_ENTRY);
try {
  const owner = new ApiClient(server.url);
  await owner.register("lighthouse_user");
  await owner.request("PATCH", "/api/user", { language: LANGUAGE });
  // A journal with more than a page of memories, as a family's would be.
  let memory: Memory | undefined;
  for (let i = 0; i < 20; i++) {
    memory = await seedMemory(owner, {
      title: `Our day at the beach ${i + 1}`,
      transcript: "We built a sandcastle together and watched the sun go down.",
      summary: "Our day at the beach. You built a sandcastle, my love.",
      tags: ["beach", "sandcastle"],
      recordedAt: new Date(Date.UTC(2026, 5, 1 + i)).toISOString(),
    });
  }
  // The owner's session, for Lighthouse's browser to send as a cookie.
  const cookie = owner.cookieHeader();

  const allPages: Array<[name: string, route: string, cookie: string | undefined, slug: string]> = [
    ["home page, visitor", "/", undefined, "home-visitor"],
    ["memory page, visitor", `/memory/${memory?.id}`, undefined, "memory-visitor"],
    ["home page, logged in (20 memories)", "/", cookie, "home-logged-in"],
  ];
  const unknown = PAGES?.filter((slug) => !allPages.some((page) => page[3] === slug)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `LIGHTHOUSE_PAGES: unknown page ${unknown.join(", ")} (known: ${allPages.map((page) => page[3]).join(", ")})`,
    );
  }
  const pages = PAGES ? allPages.filter((page) => PAGES.includes(page[3])) : allPages;
  print(
    `Lighthouse 12.8.2, mobile preset, median of ${RUNS} run(s) per page, language ${LANGUAGE}`,
  );
  let missed = false;
  for (const [name, route, pageCookie, slug] of pages) {
    const runs: Scores[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(
        await withRetry(() => lighthouse(`${server.url}${route}`, pageCookie, `${slug}-${i + 1}`)),
      );
    }
    const performance = median(runs.map((r) => r.performance));
    const accessibility = median(runs.map((r) => r.accessibility));
    const perfOk = performance >= TARGETS.performance;
    const a11yOk = accessibility >= TARGETS.accessibility;
    missed ||= !perfOk || !a11yOk;
    print(
      `${name} (${route}): performance ${performance} (target >= ${TARGETS.performance}) ${perfOk ? "OK" : "BELOW TARGET"}; accessibility ${accessibility} (target ${TARGETS.accessibility}) ${a11yOk ? "OK" : "BELOW TARGET"}; runs ${runs.map((r) => `${r.performance}/${r.accessibility} (${r.metrics})`).join("; ")}`,
    );
  }
  if (missed) print("lighthouse: a target was missed (figures above)");
} finally {
  await server.cleanup();
}
