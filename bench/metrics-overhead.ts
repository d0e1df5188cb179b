import { rm } from "node:fs/promises";
import autocannon, { type Result } from "autocannon";
import { loadConfig } from "../src/server/config";
import { Metrics } from "../src/server/metrics/metrics";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";

/**
 * What the metrics cost per request: the same app with METRICS_TOKEN unset (the floor: no hook,
 * no route) and set (a timing hook on every response, Node's default metrics), loaded in turns on
 * a light route (`GET /api/app-info`: no database) so the hook's share is as large as it gets.
 * Beside them, the hook's own work (`observeRequest`) timed in a loop, and one scrape of /metrics.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const TOKEN = "bench-metrics-token-0123456789abcdef";
const PATH = "/api/app-info";

async function load(url: string): Promise<Result> {
  const result: Result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  if (result.errors || result.non2xx || result.timeouts) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  }
  return result;
}

async function startApp(env: Record<string, string>) {
  const dataDir = await makeTempDir("vmj-bench-");
  const db = await createTestDatabase("sqlite");
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent", ...env });
  const app = await buildAppOn({
    config,
    database: db.handle,
    storage: new LocalAudioStorage(config.audioDir),
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    address,
    close: async () => {
      await app.close();
      await db.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const ROUTES = ["/api/memories", "/api/memories/:id", "/api/audio/:key", "/api/health"];
const STATUSES = [200, 200, 200, 404, 304];

/** Nanoseconds per call of `record`, over a realistic spread of label sets, after a warm-up. */
function nsPerCall(
  record: (route: string, status: number, seconds: number) => void,
  iterations = 300_000,
): number {
  const call = (i: number) =>
    record(ROUTES[i % ROUTES.length] ?? "", STATUSES[i % STATUSES.length] ?? 200, (i % 50) / 1000);
  for (let i = 0; i < 20_000; i++) call(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) call(i);
  return Number(process.hrtime.bigint() - started) / iterations;
}

/** The hook's work: prom-client's labelled Counter and Histogram. */
function hookCost(): number {
  const metrics = new Metrics({ queueStats: async () => [], nodeDefaults: false });
  return nsPerCall((route, status, seconds) =>
    metrics.observeRequest("GET", route, status, seconds),
  );
}

async function main(): Promise<void> {
  const off = await startApp({});
  const on = await startApp({ METRICS_TOKEN: TOKEN });
  const totals = { off: [] as Result[], on: [] as Result[] };
  try {
    await load(`${off.address}${PATH}`); // warm-up of both, discarded
    await load(`${on.address}${PATH}`);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, so a neighbour's burst of CPU on this shared machine hits both alike.
      totals.off.push(await load(`${off.address}${PATH}`));
      totals.on.push(await load(`${on.address}${PATH}`));
    }
    // The median of 5 scrapes (the first also warms the queue query and the default metrics).
    const scrapes: number[] = [];
    let body = "";
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const scrape = await fetch(`${on.address}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      body = await scrape.text();
      scrapes.push(performance.now() - started);
      if (!scrape.ok) throw new Error(`scrape: ${scrape.status}`);
    }
    const scrapeMs = [...scrapes].sort((a, b) => a - b)[2] ?? NaN;
    const mean = (results: Result[], pick: (r: Result) => number) =>
      results.reduce((sum, r) => sum + pick(r), 0) / results.length;
    const rows = (["off", "on"] as const).map((which) => [
      which === "off" ? "METRICS_TOKEN unset (floor)" : "METRICS_TOKEN set",
      mean(totals[which], (r) => r.requests.average).toFixed(0),
      totals[which].map((r) => r.requests.average.toFixed(0)).join(", "),
      mean(totals[which], (r) => r.latency.mean).toFixed(2),
      mean(totals[which], (r) => r.latency.p99).toFixed(1),
    ]);
    const offRate = mean(totals.off, (r) => r.requests.average);
    const onRate = mean(totals.on, (r) => r.requests.average);
    const header = ["app", "req/s", "req/s per round", "mean ms", "p99 ms"];
    const widths = header.map((h, i) =>
      Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |\n`;
    process.stdout.write(line(header));
    process.stdout.write(line(widths.map((w) => "-".repeat(w))));
    for (const row of rows) process.stdout.write(line(row));
    const perRequestUs = (1e6 / onRate - 1e6 / offRate).toFixed(1);
    const hookNs = hookCost();
    process.stdout.write(
      `\n| measure | value |\n| --- | --- |\n` +
        `| hook work per request (observeRequest), ns | ${hookNs.toFixed(0)} |\n` +
        `| difference in CPU time per request, µs (from req/s) | ${perRequestUs} |\n` +
        `| one scrape of /metrics (median of 5), ms | ${scrapeMs.toFixed(1)} |\n` +
        `| scrape size, kB | ${(Buffer.byteLength(body) / 1024).toFixed(1)} |\n`,
    );
    process.stdout.write(
      `\nGET ${PATH} on SQLite, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per app (means of the rounds). ` +
        "The floor is the same app without METRICS_TOKEN, measured in the same run.\n",
    );
  } finally {
    await on.close();
    await off.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
