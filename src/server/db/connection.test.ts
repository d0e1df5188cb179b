import { chmod, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../test/harness";
import { openDatabase, withStatementCache } from "./connection";

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("SQLite file permissions", () => {
  let root: string;

  beforeEach(async () => {
    root = await makeTempDir("vmj-conn-");
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("creates the folder 0700 and the database, -wal and -shm files 0600", async () => {
    const file = path.join(root, "data", "journal.db");
    const handle = await openDatabase({ kind: "sqlite", file });
    try {
      // Migrations wrote through the WAL, so all three files exist while the database is open.
      await sql`select count(*) from users`.execute(handle.db);
      expect(await modeOf(path.dirname(file))).toBe(0o700);
      expect(await modeOf(file)).toBe(0o600);
      expect(await modeOf(`${file}-wal`)).toBe(0o600);
      expect(await modeOf(`${file}-shm`)).toBe(0o600);
    } finally {
      await handle.close();
    }
  });

  it("tightens files an earlier version left world-readable", async () => {
    const file = path.join(root, "journal.db");
    const first = await openDatabase({ kind: "sqlite", file });
    await first.close();
    await chmod(file, 0o644);
    // A -shm file left behind by an earlier version is reused by SQLite as it is.
    await writeFile(`${file}-shm`, "");
    await chmod(`${file}-shm`, 0o644);
    const handle = await openDatabase({ kind: "sqlite", file });
    try {
      expect(await modeOf(file)).toBe(0o600);
      expect(await modeOf(`${file}-shm`)).toBe(0o600);
      expect(await modeOf(`${file}-wal`)).toBe(0o600);
    } finally {
      await handle.close();
    }
  });
});

describe("SQLite statement cache", () => {
  it("reuses a statement, never one still being iterated, and keeps only the newest few", () => {
    const sqlite = new SqliteDatabase(":memory:");
    const db = withStatementCache(sqlite, 2);
    try {
      const first = db.prepare("select 1 as n");
      expect(db.prepare("select 1 as n")).toBe(first);
      sqlite.exec("create table t (n integer); insert into t values (1), (2)");
      const streaming = db.prepare("select n from t");
      const rows = streaming.iterate([]);
      rows.next();
      // Busy: a second user gets its own statement, and both read correctly.
      const second = db.prepare("select n from t");
      expect(second).not.toBe(streaming);
      expect(second.all([])).toEqual([{ n: 1 }, { n: 2 }]);
      expect(rows.next().value).toEqual({ n: 2 });
      rows.return?.();
      // 'select 1 as n' is now the least recently used of three: dropped.
      db.prepare("select 2 as n");
      expect(db.prepare("select n from t")).toBe(streaming);
      expect(db.prepare("select 1 as n")).not.toBe(first);
    } finally {
      db.close();
    }
  });
});
