import { rm } from "node:fs/promises";
import autocannon, { type Result } from "autocannon";
import Fastify from "fastify";
import { sql } from "kysely";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import {
  MemoriesRepo,
  type MemoriesRepo as Repo,
  searchTokens,
} from "../src/server/memories/memories.repo";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { PAGE_SIZE } from "../src/shared/constants";

/**
 * List and search latency and throughput over HTTP with 10,000 and 100,000 memories for one user,
 * on SQLite and PostgreSQL, beside two floors measured in the same run: the same repository query
 * called directly (what the database costs without HTTP, sessions and JSON), and a bare Fastify
 * route on loopback returning the same response body (what HTTP and Fastify cost without the
 * database, sessions, helmet and zod), loaded with the same connections and duration.
 */
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const KINDS = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",") as DatabaseKind[];
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = 10;

const WORDS =
  "morning sea walk grandma kitchen bread garden rain puppy school bicycle river picnic snow story song birthday cake swing park train window laugh friend bath star moon blanket ladder apple orchard kite shell boat harbour lantern winter summer autumn spring music piano drawing pebble forest owl".split(
    " ",
  );

function sentence(rng: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(" ");
}

/** A small deterministic generator so runs are comparable. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function seed(repo: Repo, userId: string, count: number): Promise<void> {
  const rng = mulberry32(42);
  const start = Date.parse("2015-01-01T00:00:00.000Z");
  const batch = [];
  for (let i = 0; i < count; i++) {
    // One memory in a hundred is about castles, for a selective search.
    const castle = i % 100 === 0;
    batch.push({
      userId,
      audioId: null,
      title: castle ? `Castles on the beach ${i}` : `${sentence(rng, 4)} ${i}`,
      transcript: sentence(rng, 60),
      summary: sentence(rng, 25),
      tags: [WORDS[i % WORDS.length] as string, "family"],
      recordedAt: new Date(start + i * 3_600_000).toISOString(),
      status: "saved" as const,
    });
    if (batch.length === 5000) {
      await repo.insertMany(batch.splice(0));
    }
  }
  if (batch.length) await repo.insertMany(batch);
}

interface Latencies {
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentiles (the value at or below which p% of the samples fall, as HDR gives). */
function percentiles(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

interface Load {
  latency: Latencies;
  perSecond: number;
}

/**
 * autocannon's summary has p90 and p97_5 but no p95, so every response time is kept (fractional
 * ms, where autocannon's histogram rounds to whole ms) and the percentiles are taken from those.
 */
async function load(url: string, cookie: string): Promise<Load> {
  const times: number[] = [];
  const result: Result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: HTTP_SECONDS,
    headers: { cookie },
  }).on("response", (_client, _status, _bytes, responseTime) => {
    times.push(responseTime);
  });
  if (result.errors || result.non2xx || result.timeouts) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  }
  return { latency: percentiles(times), perSecond: result.requests.average };
}

interface Floor {
  latency: Latencies;
  perSecond: number;
}

/** The repository query alone, called one after another. */
async function queryFloor(fn: () => Promise<unknown>, iterations = 40): Promise<Floor> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { latency: percentiles(times), perSecond: 1000 / mean };
}

/**
 * Cleanups still owed (the app, the PostgreSQL database, temp folders), run newest first at the
 * end of each database run, on failure, and on Ctrl-C, so no bench database outlives the bench.
 */
const cleanups: (() => Promise<unknown>)[] = [];
async function releaseTo(depth: number): Promise<void> {
  while (cleanups.length > depth) {
    const cleanup = cleanups.pop();
    try {
      await cleanup?.();
    } catch (error) {
      console.error("cleanup failed:", error);
      process.exitCode = 1;
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void releaseTo(0).finally(() => process.exit(130));
  });
}

const rows: string[][] = [];
const ms = (value: number, digits: number) => value.toFixed(digits);

async function main(): Promise<void> {
  const began = Date.now();
  const seeding: string[] = [];

  // The bare floor: one route answering any path with the body it is given, no hooks or plugins.
  // Fastify serializes the parsed body on each request, as the real route does.
  let bareBody: unknown = null;
  const bare = Fastify({ logger: false });
  bare.get("/*", async () => bareBody);
  const bareAddress = await bare.listen({ port: 0, host: "127.0.0.1" });
  cleanups.push(() => bare.close());

  try {
    for (const kind of KINDS) {
      for (const size of SIZES) {
        const depth = cleanups.length;
        try {
          const dataDir = await makeTempDir("vmj-bench-");
          cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
          const db = await createTestDatabase(kind);
          cleanups.push(() => db.cleanup());
          const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent" });
          const storage = new LocalAudioStorage(config.audioDir);
          const app = await buildAppOn({ config, database: db.handle, storage });
          cleanups.push(() => app.close());

          const owner = await createUserWithSession({ database: db.handle, config });
          const repo = new MemoriesRepo(db.handle.db, db.handle.kind);
          const seedStart = Date.now();
          await seed(repo, owner.user.id, size);
          // Fresh statistics and visibility map, as autovacuum would give a settled database.
          if (kind === "postgres") await sql`vacuum analyze memories`.execute(db.handle.db);
          const seeded = `${kind} ${size}: seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`;
          seeding.push(seeded);
          process.stderr.write(`${seeded}\n`);
          const address = await app.listen({ port: 0, host: "127.0.0.1" });
          const scope = { userId: owner.user.id, savedOnly: false };
          const lastPage = Math.ceil(size / PAGE_SIZE);
          const cases: [string, string, () => Promise<unknown>][] = [
            ["list page 1", "/api/memories?page=1", () => repo.list(scope, 1)],
            [`list last page`, `/api/memories?page=${lastPage}`, () => repo.list(scope, lastPage)],
            [
              "search 'castl' (1%)",
              "/api/memories/search?q=castl",
              () => repo.search(scope, searchTokens("castl"), 1),
            ],
            [
              "search 'garden rain'",
              "/api/memories/search?q=garden%20rain",
              () => repo.search(scope, searchTokens("garden rain"), 1),
            ],
          ];
          for (const [label, path, direct] of cases) {
            // The real response, so the bare route sends a body of the same size.
            const response = await fetch(`${address}${path}`, {
              headers: { cookie: owner.cookie },
            });
            const text = await response.text();
            if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
            bareBody = JSON.parse(text);
            const bareCheck = await (await fetch(`${bareAddress}${path}`)).text();
            if (bareCheck.length !== text.length) {
              throw new Error(`${path}: bare body ${bareCheck.length} chars, real ${text.length}`);
            }

            const http = await load(`${address}${path}`, owner.cookie);
            const query = await queryFloor(direct);
            const fastify = await load(`${bareAddress}${path}`, owner.cookie);
            rows.push([
              kind,
              String(size),
              label,
              (Buffer.byteLength(text) / 1024).toFixed(1),
              ms(http.latency.p50, 1),
              ms(http.latency.p95, 1),
              ms(http.latency.p99, 1),
              http.perSecond.toFixed(0),
              ms(query.latency.p50, 2),
              ms(query.latency.p95, 2),
              query.perSecond.toFixed(0),
              ms(fastify.latency.p50, 2),
              ms(fastify.latency.p95, 2),
              fastify.perSecond.toFixed(0),
            ]);
          }
        } finally {
          await releaseTo(depth);
        }
      }
    }
  } finally {
    await releaseTo(0);
  }

  const header = [
    "db",
    "memories",
    "request",
    "body kB",
    "HTTP p50 ms",
    "HTTP p95 ms",
    "HTTP p99 ms",
    "HTTP req/s",
    "query p50 ms",
    "query p95 ms",
    "query/s",
    "Fastify p50 ms",
    "Fastify p95 ms",
    "Fastify req/s",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |\n`;
  process.stdout.write(line(header));
  process.stdout.write(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) process.stdout.write(line(row));
  process.stdout.write(
    `\n${CONNECTIONS} connections, ${HTTP_SECONDS} s per request type, for the app and for the bare Fastify route. ` +
      "query = the repository query alone, sequential, 40 times; query/s = 1000 / its mean. " +
      "Fastify = one route on loopback returning the same body (no database, session, helmet or zod), " +
      `measured right after its row. ${seeding.join("; ")}. Total ${((Date.now() - began) / 1000).toFixed(0)} s.\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
