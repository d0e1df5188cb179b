import { rm } from "node:fs/promises";
import Fastify from "fastify";
import { sql } from "kysely";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import { ownJournalId } from "../src/server/journals/journals.repo";
import { MemoriesRepo } from "../src/server/memories/memories.repo";
import { searchTokens } from "../src/server/memories/memory-search";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { PAGE_SIZE } from "../src/shared/constants";
import { seedJournal } from "./lib/journal";
import {
  CONNECTIONS,
  HTTP_SECONDS,
  load,
  loadAverage,
  markdownTable,
  queryFloor,
  warmUp,
} from "./lib/load";

/**
 * List and search latency and throughput over HTTP with 1,000 and 20,000 memories for one user,
 * on SQLite and PostgreSQL, beside two floors measured in the same run: the same repository query
 * called directly (what the database costs without HTTP, sessions and JSON), a bare Fastify
 * route on loopback returning the same response body (what HTTP and Fastify cost without the
 * database, sessions, helmet and zod), and the bare route running the same query before it
 * answers (the best share of the query's rate any app could reach: the query and HTTP, nothing
 * of the app), loaded with the same connections and duration.
 */
const SIZES = (process.env.BENCH_SIZES ?? "1000,20000").split(",").map(Number);
const KINDS = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",") as DatabaseKind[];
/** The least time the query floor of a row with HTTP load spends calling its query (queryFloor). */
const FLOOR_SECONDS = 1;
/** Only the requests whose label starts with one of these (`;`-separated), when set. */
const REQUESTS = process.env.BENCH_REQUESTS?.split(";");

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
  let bareQuery: () => Promise<unknown> = async () => {};
  const bare = Fastify({ logger: false });
  bare.get("/*", async () => bareBody);
  bare.get("/with-query/*", async () => {
    await bareQuery();
    return bareBody;
  });
  const bareAddress = await bare.listen({ port: 0, host: "127.0.0.1" });
  await warmUp(`${bareAddress}/`, "");
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
          await seedJournal(repo, owner.user.id, size);
          // Fresh statistics and visibility map, as autovacuum would give a settled database.
          if (kind === "postgres") await sql`vacuum analyze memories`.execute(db.handle.db);
          const seeded = `${kind} ${size}: seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`;
          seeding.push(seeded);
          process.stderr.write(`${seeded}\n`);
          const address = await app.listen({ port: 0, host: "127.0.0.1" });
          await warmUp(`${address}/api/memories?page=1`, owner.cookie);
          const scope = { journalId: ownJournalId(owner.user.id), savedOnly: false };
          const lastPage = Math.ceil(size / PAGE_SIZE);
          // The dearest page to reach by offset: as far from the newest as from the oldest end.
          const middlePage = Math.ceil(lastPage / 2);
          const cases: [string, string, () => Promise<unknown>][] = [
            ["list page 1", "/api/memories?page=1", () => repo.list(scope, 1)],
            [
              "list middle page",
              `/api/memories?page=${middlePage}`,
              () => repo.list(scope, middlePage),
            ],
            [`list last page`, `/api/memories?page=${lastPage}`, () => repo.list(scope, lastPage)],
            ["years", "/api/memories/years", () => repo.years(scope)],
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
            if (REQUESTS && !REQUESTS.some((wanted) => label.startsWith(wanted))) continue;
            // The real response, so the bare route sends a body of the same size.
            const response = await fetch(`${address}${path}`, {
              headers: { cookie: owner.cookie },
            });
            const text = await response.text();
            if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
            bareBody = JSON.parse(text);
            bareQuery = direct;
            const bareCheck = await (await fetch(`${bareAddress}${path}`)).text();
            if (bareCheck.length !== text.length) {
              throw new Error(`${path}: bare body ${bareCheck.length} chars, real ${text.length}`);
            }

            const http = await load(`${address}${path}`, owner.cookie);
            const query = await queryFloor(direct, undefined, undefined, FLOOR_SECONDS);
            const fastify = await load(`${bareAddress}${path}`, owner.cookie);
            const withQuery = await load(`${bareAddress}/with-query${path}`, owner.cookie);
            rows.push([
              kind,
              loadAverage(),
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
              withQuery.perSecond.toFixed(0),
              `${((100 * withQuery.perSecond) / query.perSecond).toFixed(0)}%`,
              `${((100 * http.perSecond) / query.perSecond).toFixed(0)}%`,
              ms(http.loopDelay.p99, 1),
              ms(http.loopDelay.max, 1),
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
    "load",
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
    "Fastify+query req/s",
    "Fastify+query/query",
    "HTTP/query",
    "loop p99 ms",
    "loop max ms",
  ];
  process.stdout.write(markdownTable(header, rows));
  process.stdout.write(
    `\n${CONNECTIONS} connections, ${HTTP_SECONDS} s per request type, for the app and for the bare Fastify route. ` +
      `query = the repository query alone, sequential, 40 times (rows with HTTP load: at least ${FLOOR_SECONDS} s of calls); query/s = 1000 / its mean. ` +
      "Fastify = one route on loopback returning the same body (no database, session, helmet or zod), " +
      "Fastify+query = that route running the row's query before it answers (the share no app can beat), " +
      `measured right after its row; "-" where a row has no HTTP load (a cold page is cold once). HTTP/query = HTTP req/s as a share of query/s. loop = this process's event-loop delay during the HTTP load (the app runs in it). load = 1-minute load average at the row. ${seeding.join("; ")}. Total ${((Date.now() - began) / 1000).toFixed(0)} s.\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
