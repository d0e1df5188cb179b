import { rm } from "node:fs/promises";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../test/harness";
import { type DatabaseHandle, openDatabase } from "./connection";
import { isUniqueKeyLookup, UniqueKeyLookups } from "./sqlite-point-reads";
import { SqliteReadPool } from "./sqlite-read-pool";

const sqlite = new SqliteDatabase(":memory:");
sqlite.exec(`
  create table sessions (id_hash text primary key, user_id text not null, expires_at text);
  create index sessions_user_id on sessions (user_id);
  create table counts (user_id text primary key, total integer not null);
  create table pairs (a text, b text, n integer, primary key (a, b));
  create table numbered (id integer primary key, body text);
  create table tagged (id integer primary key, tag text);
  create unique index tagged_live on tagged (tag) where tag is not null;
  create unique index tagged_lower on tagged (lower(tag));
`);
afterAll(() => sqlite.close());

const judged = (sql: string, parameters: unknown[] = ["x"]) =>
  isUniqueKeyLookup(sqlite, sql, parameters);

describe("unique-key lookups, as SQLite plans them", () => {
  it("are reads of one row by a whole unique key given as parameters", () => {
    expect(judged(`select * from "sessions" where "id_hash" = ?`)).toBe(true);
    expect(judged(`select "total" from "counts" where "user_id" = ?`)).toBe(true);
    expect(judged(`select * from pairs where a = ? and b = ?`, ["x", "y"])).toBe(true);
    expect(judged(`select body from numbered where id = ?`, [1])).toBe(true);
  });

  it("are not scans, ranges, non-unique or partial keys, in lists, joins or subqueries", () => {
    expect(judged(`select * from sessions where user_id = ?`)).toBe(false);
    expect(judged(`select * from sessions`, [])).toBe(false);
    expect(judged(`select * from sessions where id_hash > ?`)).toBe(false);
    expect(judged(`select * from pairs where a = ?`)).toBe(false);
    expect(judged(`select * from numbered where id in (?, ?)`, [1, 2])).toBe(false);
    expect(judged(`select * from sessions where id_hash in (?, ?)`, ["x", "y"])).toBe(false);
    expect(judged(`select * from tagged where tag = ?`)).toBe(false);
    expect(judged(`select * from tagged where lower(tag) = ?`)).toBe(false);
    expect(
      judged(
        `select s.*, c.total from sessions s join counts c on c.user_id = s.user_id where s.id_hash = ?`,
      ),
    ).toBe(false);
    expect(
      judged(`select (select count(*) from sessions) as n from counts where user_id = ?`),
    ).toBe(false);
    // A parameter besides the key's: its use is not the plan's business, so it is refused.
    expect(judged(`select * from sessions where id_hash = ? limit ?`, ["x", 1])).toBe(false);
  });

  it("keeps each text's verdict", () => {
    const lookups = new UniqueKeyLookups(sqlite, 2);
    const point = `select * from counts where user_id = ?`;
    expect(lookups.test(point, ["x"])).toBe(true);
    expect(lookups.test("select * from counts", [])).toBe(false);
    expect(lookups.test(point, ["y"])).toBe(true);
  });
});

describe("unique-key lookups on a database with read workers", () => {
  let root: string;
  let handle: DatabaseHandle;
  const lookup = (key: string, db = handle.db) =>
    sql<{ n: number }>`select n from point_probe where key = ${key}`
      .execute(db)
      .then((result) => result.rows[0]?.n);

  beforeEach(async () => {
    root = await makeTempDir("vmj-pointreads-");
    handle = await openDatabase(
      { kind: "sqlite", file: path.join(root, "journal.db") },
      { sqliteReadWorkers: 2 },
    );
    await sql`create table point_probe (key text primary key, n integer not null)`.execute(
      handle.db,
    );
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await handle.close();
    await rm(root, { recursive: true, force: true });
  });

  it("are answered on the event loop, other reads by a worker", async () => {
    await sql`insert into point_probe (key, n) values ('a', 1)`.execute(handle.db);
    const sent = vi.spyOn(SqliteReadPool.prototype, "query");
    expect(await lookup("a")).toBe(1);
    expect(sent).not.toHaveBeenCalled();
    await sql`select count(*) as n from point_probe`.execute(handle.db);
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it("see every committed write at once, and nothing of an open transaction", async () => {
    for (let n = 1; n <= 20; n++) {
      await sql`insert into point_probe (key, n) values (${`k${n}`}, ${n})`.execute(handle.db);
      expect(await lookup(`k${n}`)).toBe(n);
      await sql`delete from point_probe where key = ${`k${n}`}`.execute(handle.db);
      expect(await lookup(`k${n}`)).toBeUndefined();
    }
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into point_probe (key, n) values ('t', 1)`.execute(trx);
      expect(await lookup("t", trx)).toBe(1);
      // Outside it, answered without waiting for the transaction to end.
      expect(await lookup("t")).toBeUndefined();
    });
    expect(await lookup("t")).toBe(1);
  });
});
