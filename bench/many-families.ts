import { rm } from "node:fs/promises";
import { type Kysely, sql } from "kysely";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import type { Database } from "../src/server/db/schema";
import { MemoriesRepo, searchTokens } from "../src/server/memories/memories.repo";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { benchMemory, JOURNAL_START, mulberry32 } from "./lib/journal";
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
const TEXTS = 1000;

/** Users other than the measured one: plain rows nobody logs in as. */
async function addOtherUsers(db: Kysely<Database>, kind: DatabaseKind, count: number) {
  if (count <= 0) return;
  const now = new Date().toISOString();
  const series =
    kind === "sqlite"
      ? sql`with recursive s(j) as (select 1 union all select j + 1 from s where j < ${count})`
      : sql``;
  const from = kind === "sqlite" ? sql`from s` : sql`from generate_series(1, ${count}) as s(j)`;
  await sql`${series} insert into users (id, username, username_lower, display_name, email,
      email_lower, password_hash, is_public, created_at, updated_at)
    select 'family' || j, 'family' || j, 'family' || j, null, null, null, 'x', 1, ${now}, ${now}
    ${from}`.execute(db);
}

/**
 * `total` memories, memory i belonging to the measured user when i % users = 0 and to
 * family<i % users> otherwise; the measured user's k-th memory gets the same text and date on
 * every server, so the two journals they see are identical.
 */
async function seedMemories(
  db: Kysely<Database>,
  kind: DatabaseKind,
  userId: string,
  total: number,
  users: number,
): Promise<void> {
  await sql`create table bench_texts (n integer primary key, title text, transcript text,
    summary text, tags text)`.execute(db);
  const rng = mulberry32(42);
  for (let n = 0; n < TEXTS; n += 250) {
    const values = [];
    for (let k = n; k < n + 250; k++) {
      const memory = benchMemory(rng, k);
      values.push(
        sql`(${k}, ${memory.title}, ${memory.transcript}, ${memory.summary}, ${JSON.stringify(memory.tags)})`,
      );
    }
    await sql`insert into bench_texts values ${sql.join(values)}`.execute(db);
  }
  const now = new Date().toISOString();
  const startSeconds = JOURNAL_START / 1000;
  // The k-th memory of each user is recorded k hours after the journal's start.
  const recordedAt =
    kind === "sqlite"
      ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${startSeconds} + (i / ${users}) * 3600, 'unixepoch')`
      : sql`to_char(to_timestamp(${startSeconds} + (i / ${users}) * 3600) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const owner = sql`case when i % ${users} = 0 then ${userId} else 'family' || (i % ${users}) end`;
  const series =
    kind === "sqlite"
      ? sql`with recursive s(i) as (select 0 union all select i + 1 from s where i + 1 < ${total})`
      : sql``;
  const from = kind === "sqlite" ? sql`from s` : sql`from generate_series(0, ${total - 1}) as s(i)`;
  await sql`${series} insert into memories (id, user_id, audio_id, title, transcript, summary,
      scores, duration, recorded_at, tags, status, created_at, updated_at)
    select 'fam' || i, ${owner}, null, t.title, t.transcript, t.summary, '{}', 0, ${recordedAt},
      t.tags, 'saved', ${now}, ${now}
    ${from} join bench_texts t on t.n = ((i / ${users}) * 7 + i % ${users}) % ${TEXTS}`.execute(db);
  await sql`drop table bench_texts`.execute(db);
  if (kind === "postgres") await sql`vacuum analyze`.execute(db);
}

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
