import { rm } from "node:fs/promises";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import { MemoriesRepo, searchTokens } from "../src/server/memories/memories.repo";
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
 * user's list and search should cost about the same on both (issue 18: within 2x). Both are
 * measured in the same run, the query alone and over HTTP, for each database.
 *
 * Seeding a million memories through the repository takes too long on this machine, so each
 * journal is written by one INSERT ... SELECT over a series (a recursive CTE on SQLite,
 * generate_series on PostgreSQL) from 1,000 texts made by the list bench's generator; triggers
 * (full-text index, counts) run for every row as they would for real inserts.
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

/** A server with `total` memories over `users` users; the measured user's figures on it. */
async function measureServer(
  kind: DatabaseKind,
  total: number,
  users: number,
  seeding: string[],
): Promise<Map<string, Measured>> {
  const depth = cleanups.length;
  try {
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
    const note = `${kind} ${total.toLocaleString("en")} memories over ${users.toLocaleString("en")} users: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`;
    seeding.push(note);
    process.stderr.write(`${note}\n`);

    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const repo = new MemoriesRepo(db.handle.db, kind);
    const scope = { userId: owner.user.id, savedOnly: false };
    const cases: [string, string, () => Promise<unknown>][] = [
      ["list page 1", "/api/memories?page=1", () => repo.list(scope, 1)],
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
    ];
    const results = new Map<string, Measured>();
    for (const [label, path, direct] of cases) {
      const response = await fetch(`${address}${path}`, { headers: { cookie: owner.cookie } });
      const body = (await response.json()) as { total: number };
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      process.stderr.write(`${kind} ${total}: ${label} total ${body.total}\n`);
      const query = await queryFloor(direct);
      const http = await load(`${address}${path}`, owner.cookie);
      results.set(label, { query: query.latency.p50, http });
    }
    return results;
  } finally {
    while (cleanups.length > depth) await cleanups.pop()?.();
  }
}

async function main(): Promise<void> {
  const began = Date.now();
  const seeding: string[] = [];
  const rows: string[][] = [];
  const perUser = Math.round(MEMORIES / USERS);
  try {
    for (const kind of KINDS) {
      const alone = await measureServer(kind, perUser, 1, seeding);
      const shared = await measureServer(kind, MEMORIES, USERS, seeding);
      for (const [label, many] of shared) {
        const own = alone.get(label);
        if (!own) continue;
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
