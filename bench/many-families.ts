import { rm } from "node:fs/promises";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import { ownJournalId } from "../src/server/journals/journals.repo";
import { MemoriesRepo } from "../src/server/memories/memories.repo";
import { searchTokens } from "../src/server/memories/memory-search";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { addOtherUsers, seedMemories } from "./lib/families";
import {
  CONNECTIONS,
  HTTP_SECONDS,
  type Load,
  load,
  loadAverage,
  markdownTable,
  queryFloor,
} from "./lib/load";

/**
 * Many families on one server: MEMORIES memories spread evenly over USERS users (1,000,000 over
 * 10,000 by default), against the same user's 100 memories on a server holding nothing else. One
 * user's list and search should cost about the same on both (within 2x). Both are
 * measured in the same run, the query alone and over HTTP, for each database.
 *
 * Seeding a million memories through the repository takes too long on this machine, so each
 * journal is written by one INSERT ... SELECT over a series (a recursive CTE on SQLite,
 * generate_series on PostgreSQL) from 1,000 texts made by the list bench's generator; the month
 * counts' triggers run for every row as they would for real inserts, and SQLite's full-text index
 * is then written by the app's rebuild (`npm run search-index -- rebuild`).
 */
const MEMORIES = Number(process.env.BENCH_FAMILY_MEMORIES ?? 1_000_000);
const USERS = Number(process.env.BENCH_FAMILY_USERS ?? 10_000);
const KINDS = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",") as DatabaseKind[];

interface Measured {
  query: number;
  http: Load;
}

const cleanups: (() => Promise<unknown>)[] = [];
async function releaseAll(): Promise<void> {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()?.();
    } catch (error) {
      console.error("cleanup failed:", error);
      process.exitCode = 1;
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void releaseAll().finally(() => process.exit(130));
  });
}

interface Server {
  label: string;
  /** The measured user's cases: label, API path, and the repository call alone. */
  cases: [string, string, () => Promise<unknown>][];
  address: string;
  cookie: string;
}

/** A listening server with `total` memories over `users` users (cleaned up by releaseAll). */
async function openServer(
  kind: DatabaseKind,
  total: number,
  users: number,
  seeding: string[],
): Promise<Server> {
  const dataDir = await makeTempDir("vmj-bench-");
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const db = await createTestDatabase(kind);
  cleanups.push(() => db.cleanup());
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent" });
  const app = await buildAppOn({
    config,
    database: db.handle,
    storage: new LocalAudioStorage(config.audioDir),
  });
  cleanups.push(() => app.close());
  const owner = await createUserWithSession({ database: db.handle, config });
  const started = Date.now();
  await addOtherUsers(db.handle.db, kind, users - 1);
  await seedMemories(db.handle.db, kind, owner.user.id, total, users);
  const repo = new MemoriesRepo(db.handle.db, kind);
  await repo.rebuildSearchIndex();
  const note = `${kind} ${total.toLocaleString("en")} memories over ${users.toLocaleString("en")} users: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`;
  seeding.push(note);
  process.stderr.write(`${note}\n`);
  const scope = { journalId: ownJournalId(owner.user.id), savedOnly: false };
  const lastPage = Math.ceil(total / users / 15);
  return {
    label: `${kind} ${total}`,
    address: await app.listen({ port: 0, host: "127.0.0.1" }),
    cookie: owner.cookie,
    cases: [
      ["list page 1", "/api/memories?page=1", () => repo.list(scope, 1)],
      ["list last page", `/api/memories?page=${lastPage}`, () => repo.list(scope, lastPage)],
      [
        "search 'castl'",
        "/api/memories/search?q=castl",
        () => repo.search(scope, searchTokens("castl"), 1),
      ],
      [
        "search 'garden rain'",
        "/api/memories/search?q=garden%20rain",
        () => repo.search(scope, searchTokens("garden rain"), 1),
      ],
    ],
  };
}

/** One case on one server: the query alone, then over HTTP. */
async function measure(server: Server, index: number): Promise<Measured> {
  const [label, path, direct] = server.cases[index] as Server["cases"][number];
  const response = await fetch(`${server.address}${path}`, { headers: { cookie: server.cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  const body = (await response.json()) as { total: number };
  process.stderr.write(`${server.label}: ${label} total ${body.total}\n`);
  const query = await queryFloor(direct);
  const http = await load(`${server.address}${path}`, server.cookie);
  return { query: query.latency.p50, http };
}

async function main(): Promise<void> {
  const began = Date.now();
  const seeding: string[] = [];
  const rows: string[][] = [];
  const perUser = Math.round(MEMORIES / USERS);
  try {
    for (const kind of KINDS) {
      const depth = cleanups.length;
      const alone = await openServer(kind, perUser, 1, seeding);
      const shared = await openServer(kind, MEMORIES, USERS, seeding);
      // Each case on both servers back to back, so the shared cores' load is alike for both.
      for (const [index, [label]] of shared.cases.entries()) {
        const own = await measure(alone, index);
        const many = await measure(shared, index);
        rows.push([
          kind,
          loadAverage(),
          label,
          many.query.toFixed(2),
          own.query.toFixed(2),
          `${(many.query / own.query).toFixed(1)}x`,
          many.http.perSecond.toFixed(0),
          own.http.perSecond.toFixed(0),
          `${(own.http.perSecond / many.http.perSecond).toFixed(1)}x`,
          many.http.loopDelay.p99.toFixed(1),
        ]);
      }
      while (cleanups.length > depth) await cleanups.pop()?.();
    }
  } finally {
    await releaseAll();
  }
  process.stdout.write(
    markdownTable(
      [
        "db",
        "load",
        "request (one user, 100 memories)",
        "query p50 ms, many families",
        "query p50 ms, only theirs",
        "query ratio",
        "HTTP req/s, many families",
        "HTTP req/s, only theirs",
        "HTTP ratio",
        "loop p99 ms, many families",
      ],
      rows,
    ),
  );
  process.stdout.write(
    `\nmany families = ${MEMORIES.toLocaleString("en")} memories over ${USERS.toLocaleString("en")} users; ` +
      `only theirs = a server holding just the measured user's ${perUser} memories (the same texts and dates). ` +
      `query = the repository call alone, 40 times, p50; HTTP = ${CONNECTIONS} connections for ${HTTP_SECONDS} s. ` +
      `ratio = many families / only theirs (target: 2x or less). ${seeding.join("; ")}. ` +
      `Total ${((Date.now() - began) / 1000).toFixed(0)} s.\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
