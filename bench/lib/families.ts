import { type Kysely, sql } from "kysely";
import type { DatabaseKind } from "../../src/server/db/connection";
import type { Database } from "../../src/server/db/schema";
import { benchMemory, JOURNAL_START, mulberry32 } from "./journal";

const TEXTS = 1000;

/** Users other than the measured one: plain rows nobody logs in as. */
export async function addOtherUsers(db: Kysely<Database>, kind: DatabaseKind, count: number) {
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
export async function seedMemories(
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
  // Literals, not parameters: better-sqlite3 binds numbers as reals, and i % 2.0 is not an id.
  const perUser = sql.lit(users);
  const startSeconds = JOURNAL_START / 1000;
  // The k-th memory of each user is recorded k hours after the journal's start.
  const recordedAt =
    kind === "sqlite"
      ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.lit(startSeconds)} + (i / ${perUser}) * 3600, 'unixepoch')`
      : sql`to_char(to_timestamp(${sql.lit(startSeconds)} + (i / ${perUser}) * 3600) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const owner = sql`case when i % ${perUser} = 0 then ${userId} else 'family' || (i % ${perUser}) end`;
  const series =
    kind === "sqlite"
      ? sql`with recursive s(i) as (select 0 union all select i + 1 from s where i + 1 < ${sql.lit(total)})`
      : sql``;
  const from =
    kind === "sqlite" ? sql`from s` : sql`from generate_series(0, ${sql.lit(total - 1)}) as s(i)`;
  await sql`${series} insert into memories (id, user_id, audio_id, title, transcript, summary,
      scores, duration, recorded_at, tags, status, created_at, updated_at)
    select 'fam' || i, ${owner}, null, t.title, t.transcript, t.summary, '{}', 0, ${recordedAt},
      t.tags, 'saved', ${now}, ${now}
    ${from} join bench_texts t on t.n = ((i / ${perUser}) * 7 + i % ${perUser}) % ${sql.lit(TEXTS)}`.execute(
    db,
  );
  await sql`drop table bench_texts`.execute(db);
  if (kind === "postgres") await sql`vacuum analyze`.execute(db);
}
