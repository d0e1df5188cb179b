import autocannon, { type Result } from "autocannon";
import { sql } from "kysely";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import {
  MemoriesRepo,
  type MemoriesRepo as Repo,
  searchTokens,
} from "../src/server/memories/memories.repo";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { PAGE_SIZE } from "../src/shared/constants";

/**
 * List and search latency and throughput over HTTP with 10,000 and 100,000 memories for one user,
 * on SQLite and PostgreSQL, beside the same repository query called directly (the floor: what the
 * database costs without HTTP, sessions and JSON).
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

async function floor(
  fn: () => Promise<unknown>,
  iterations = 40,
): Promise<{ ms: number; perSecond: number }> {
  await fn();
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  const ms = Number(process.hrtime.bigint() - started) / 1e6 / iterations;
  return { ms, perSecond: 1000 / ms };
}

const rows: string[][] = [];
function report(
  kind: string,
  size: number,
  label: string,
  http: Result,
  direct: { ms: number; perSecond: number },
) {
  if (http.errors || http.non2xx || http.timeouts) {
    throw new Error(
      `${label}: ${http.errors} errors, ${http.non2xx} non-2xx, ${http.timeouts} timeouts`,
    );
  }
  rows.push([
    kind,
    String(size),
    label,
    http.latency.p50.toFixed(1),
    http.latency.p99.toFixed(1),
    http.requests.average.toFixed(0),
    direct.ms.toFixed(2),
    direct.perSecond.toFixed(0),
  ]);
}

async function main(): Promise<void> {
  const began = Date.now();
  for (const kind of KINDS) {
    for (const size of SIZES) {
      const dataDir = await makeTempDir("vmj-bench-");
      const db = await createTestDatabase(kind);
      const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent" });
      const storage = new LocalAudioStorage(config.audioDir);
      const app = await buildApp({ config, database: db.handle, storage });
      try {
        const owner = await createUserWithSession({ database: db.handle, config });
        const repo = new MemoriesRepo(db.handle.db, db.handle.kind);
        const seedStart = Date.now();
        await seed(repo, owner.user.id, size);
        // Fresh statistics and visibility map, as autovacuum would give a settled database.
        if (kind === "postgres") await sql`vacuum analyze memories`.execute(db.handle.db);
        process.stderr.write(
          `${kind} ${size}: seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s\n`,
        );
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
          const http = await autocannon({
            url: `${address}${path}`,
            connections: CONNECTIONS,
            duration: HTTP_SECONDS,
            headers: { cookie: owner.cookie },
          });
          report(kind, size, label, http, await floor(direct));
        }
      } finally {
        await app.close();
        await db.cleanup();
      }
    }
  }
  const header = [
    "db",
    "memories",
    "request",
    "HTTP p50 ms",
    "HTTP p99 ms",
    "HTTP req/s",
    "floor ms",
    "floor q/s",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |\n`;
  process.stdout.write(line(header));
  process.stdout.write(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) process.stdout.write(line(row));
  process.stdout.write(
    `\n${CONNECTIONS} connections, ${HTTP_SECONDS} s per request type; floor = the repository query alone, sequential. Total ${((Date.now() - began) / 1000).toFixed(0)} s.\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
