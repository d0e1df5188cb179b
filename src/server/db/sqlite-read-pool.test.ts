import { readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../test/harness";
import { type DatabaseHandle, openDatabase } from "./connection";
import type { Database } from "./schema";
import { READ_WORKER_NICENESS, SqliteReadPool } from "./sqlite-read-pool";

// A read that keeps SQLite busy for a few hundred milliseconds, whichever thread runs it.
const SLOW_SQL = `with recursive counter(n) as (
  select 1 union all select n + 1 from counter where n < 1000000
) select count(*) as n from counter`;
const SLOW_READ = sql.raw<{ n: number }>(SLOW_SQL);

// Prepares fine and fails while running, so the error comes from the thread that ran it.
const FAILING_READ = "select json_extract('not json', '$') as value";

const probeCount = async (db: Kysely<Database>) =>
  (await sql<{ n: number }>`select count(*) as n from read_pool_probe`.execute(db)).rows[0]?.n;

describe("SQLite reads on worker threads", () => {
  let root: string;
  let handle: DatabaseHandle;

  beforeEach(async () => {
    root = await makeTempDir("vmj-readpool-");
    handle = await openDatabase(
      { kind: "sqlite", file: path.join(root, "journal.db") },
      { sqliteReadWorkers: 2 },
    );
    await sql`create table read_pool_probe (n integer not null)`.execute(handle.db);
  });
  afterEach(async () => {
    await handle.close();
    await rm(root, { recursive: true, force: true });
  });

  it("answers a timer and a quick read while a slow read runs", async () => {
    const finished: string[] = [];
    const slow = SLOW_READ.execute(handle.db).then((result) => {
      finished.push("slow read");
      return result.rows[0]?.n;
    });
    const timer = new Promise((resolve) => setTimeout(resolve, 5)).then(() => {
      finished.push("timer");
    });
    const quick = sql`select 1 as n`.execute(handle.db).then(() => {
      finished.push("quick read");
    });
    const [count] = await Promise.all([slow, timer, quick]);
    expect(count).toBe(1_000_000);
    // On the event loop the slow read would finish first: nothing else runs meanwhile.
    expect(finished.at(-1)).toBe("slow read");
  });

  it("hands each answer over in a turn of its own, so timers run between the callers' work", async () => {
    // Each caller works 5 ms on its answer (as a search ranks its candidates); answers that
    // arrive meanwhile pile up. A 0 ms timer, re-armed each time it fires, counts turns.
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks += 1;
      if (ticking) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const ticksAtEachAnswer: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, () =>
        sql`select 1 as n`.execute(handle.db).then(() => {
          ticksAtEachAnswer.push(ticks);
          const until = performance.now() + 5;
          while (performance.now() < until) {
            // busy, as synchronous work is
          }
        }),
      ),
    );
    ticking = false;
    // Handed over back to back, several callers would see the same count: no timer between them.
    const repeats = ticksAtEachAnswer.filter((n, i) => i > 0 && n === ticksAtEachAnswer[i - 1]);
    expect(repeats).toEqual([]);
  });

  it("reads every committed write, at once", async () => {
    for (let n = 1; n <= 50; n++) {
      await sql`insert into read_pool_probe (n) values (${n})`.execute(handle.db);
      expect(await probeCount(handle.db)).toBe(n);
    }
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into read_pool_probe (n) values (51)`.execute(trx);
    });
    expect(await probeCount(handle.db)).toBe(51);
  });

  it("reads a transaction's own writes inside it, and only committed rows outside", async () => {
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into read_pool_probe (n) values (1)`.execute(trx);
      expect(await probeCount(trx)).toBe(1);
      // Outside the transaction a worker answers without waiting for it to finish.
      expect(await probeCount(handle.db)).toBe(0);
    });
    expect(await probeCount(handle.db)).toBe(1);
  });

  it("fails a read with the error SQLite gives on the main connection", async () => {
    const direct = new SqliteDatabase(":memory:");
    let expected: unknown;
    try {
      direct.prepare(FAILING_READ).all();
    } catch (error) {
      expected = error;
    } finally {
      direct.close();
    }
    const error = await sql
      .raw(FAILING_READ)
      .execute(handle.db)
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(SqliteDatabase.SqliteError);
    expect(error).toMatchObject({
      message: (expected as Error).message,
      code: (expected as { code: string }).code,
    });
    // The worker is still there for the next read.
    expect(await probeCount(handle.db)).toBe(0);
  });

  it("still runs pragmas on the main connection", async () => {
    // foreign_keys is set on the main connection only; a worker would answer 0.
    const result = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db);
    expect(result.rows).toEqual([{ foreign_keys: 1 }]);
  });
});

describe("SQLite read pool", () => {
  let root: string;
  let file: string;

  beforeEach(async () => {
    root = await makeTempDir("vmj-readpool-");
    file = path.join(root, "journal.db");
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.close();
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const start = (size: number) =>
    SqliteReadPool.start({ file, size, statementCacheSize: 8, busyTimeoutMs: 1000 });

  it.runIf(process.platform === "linux")(
    "runs its workers at a lower priority than the main thread (Linux)",
    async () => {
      /** The niceness of each of this process's threads (field 19 of /proc/self/task/N/stat). */
      const nicenessOfThreads = async () =>
        Promise.all(
          (await readdir("/proc/self/task")).map(async (task) => {
            const stat = await readFile(`/proc/self/task/${task}/stat`, "utf8");
            return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
          }),
        );
      const before = (await nicenessOfThreads()).filter((n) => n === READ_WORKER_NICENESS).length;
      const pool = await start(2);
      try {
        const niced = (await nicenessOfThreads()).filter((n) => n === READ_WORKER_NICENESS);
        expect(niced.length - before).toBe(2);
        expect(os.getPriority()).toBeLessThan(READ_WORKER_NICENESS);
      } finally {
        await pool.close();
      }
    },
  );

  it("rejects a read whose worker died, and replaces the worker", async () => {
    const pool = await start(1);
    try {
      const [first] = pool.threads;
      const slow = pool.query(SLOW_SQL, []);
      await first?.terminate();
      await expect(slow).rejects.toThrow(/SQLite read not answered: its worker thread stopped/);
      expect(pool.threads).toHaveLength(1);
      expect(pool.threads[0]).not.toBe(first);
      expect(await pool.query("select 2 as n", [])).toEqual([{ n: 2 }]);
    } finally {
      await pool.close();
    }
  });

  it("does not replace a worker whose replacement cannot open the file", async () => {
    const pool = await start(1);
    try {
      // The running worker keeps the deleted file open; a new one cannot find it.
      await rm(file);
      await pool.threads[0]?.terminate();
      await vi.waitFor(() => expect(pool.size).toBe(0));
      await expect(pool.query("select 1", [])).rejects.toThrow("no SQLite read worker is running");
    } finally {
      await pool.close();
    }
  });

  it("stops every worker on close and rejects what was waiting", async () => {
    const pool = await start(2);
    const threads = [...pool.threads];
    expect(threads.map((thread) => thread.threadId).every((id) => id > 0)).toBe(true);
    const waiting = expect(pool.query(SLOW_SQL, [])).rejects.toThrow(
      "SQLite read not answered: the database was closed",
    );
    await pool.close();
    await waiting;
    // A terminated worker's threadId is -1.
    expect(threads.map((thread) => thread.threadId)).toEqual([-1, -1]);
    expect(pool.threads).toEqual([]);
    await expect(pool.query("select 1", [])).rejects.toThrow("the SQLite read pool is closed");
  });

  it("fails to start on a file that is not there", async () => {
    await expect(
      SqliteReadPool.start({
        file: path.join(root, "missing.db"),
        size: 2,
        statementCacheSize: 8,
        busyTimeoutMs: 1000,
      }),
    ).rejects.toThrow(/unable to open database file/);
  });
});
