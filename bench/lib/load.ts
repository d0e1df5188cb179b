import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import autocannon, { type Result } from "autocannon";

export const CONNECTIONS = 10;
export const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

export interface Latencies {
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentiles (the value at or below which p% of the samples fall, as HDR gives). */
export function percentiles(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

export interface Load {
  latency: Latencies;
  perSecond: number;
  /** Event-loop delay of this process while the load ran (ms): what every other request waited. */
  loopDelay: { p99: number; max: number };
}

/**
 * Loads a URL with autocannon. Its summary has p90 and p97_5 but no p95, so every response time
 * is kept (fractional ms, where autocannon's histogram rounds to whole ms) and the percentiles are
 * taken from those. The event-loop delay is sampled every millisecond meanwhile: when the server
 * runs in this process, a synchronous query shows up there as the time nothing else could run.
 */
export async function load(url: string, cookie: string): Promise<Load> {
  const times: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const result: Result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: HTTP_SECONDS,
    headers: { cookie },
  }).on("response", (_client, _status, _bytes, responseTime) => {
    times.push(responseTime);
  });
  loop.disable();
  if (result.errors || result.non2xx || result.timeouts) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  }
  return {
    latency: percentiles(times),
    perSecond: result.requests.average,
    loopDelay: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
  };
}

/**
 * An untimed second of load on a URL, so the rows that follow measure a warm process (compiled
 * code, connections and worker threads started), not the first requests it ever served: without
 * it the first row of a run read 30 to 40% slower than the same request later in the run.
 */
export async function warmUp(url: string, cookie: string): Promise<void> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers: { cookie } });
}

export interface Floor {
  latency: Latencies;
  perSecond: number;
}

/**
 * The repository query alone, called one after another: at least `iterations` times, and on
 * until the calls have taken `minSeconds` in all. Forty calls of a query under a millisecond last
 * about 20 ms, and their mean moved by 2x between rows of one run measuring the same journal
 * (one GC pause or a core taken away is a large share of it); a second of calls does not.
 */
export async function queryFloor(
  fn: () => Promise<unknown>,
  iterations = 40,
  /** Untimed work after each call (work the call left to run after its answer). */
  afterEach: () => Promise<unknown> = async () => {},
  minSeconds = 0,
): Promise<Floor> {
  await fn();
  await afterEach();
  const times: number[] = [];
  let timed = 0;
  while (times.length < iterations || timed < minSeconds * 1000) {
    const started = process.hrtime.bigint();
    await fn();
    const took = Number(process.hrtime.bigint() - started) / 1e6;
    times.push(took);
    timed += took;
    await afterEach();
  }
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { latency: percentiles(times), perSecond: 1000 / mean };
}

/** A markdown table with padded columns. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |\n`;
  return line(header) + line(widths.map((w) => "-".repeat(w))) + rows.map(line).join("");
}

/** The machine's 1-minute load average now, for the figures' context (the cores are shared). */
export function loadAverage(): string {
  return (os.loadavg()[0] ?? 0).toFixed(2);
}
