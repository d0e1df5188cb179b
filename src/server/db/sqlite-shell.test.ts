import { execFile, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";
import { MemoriesRepo } from "../memories/memories.repo";
import { createBareUser } from "../test/auth-helpers";
import { makeTempDir } from "../test/harness";
import { openDatabase } from "./connection";

/** Debian 12's shell (SQLite 3.40), as `.ci/run` installs it: older than better-sqlite3's SQLite. */
const SQLITE3 = "/usr/bin/sqlite3";

const shell = async (file: string, script: string) =>
  (await promisify(execFile)(SQLITE3, ["-bail", file, script])).stdout;

/** Runs `npm run search-index -- <args>` on the database file; its exit code and output. */
const searchIndexCli = (file: string, args: string[]) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const cli = path.join(import.meta.dirname, "..", "search-index-cli.ts");
    const child = spawn(process.execPath, ["--import", "tsx", cli, ...args], {
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: `sqlite:${file}` },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("exit", (code) => resolve({ code, out }));
  });

/**
 * A database the app created stays writable by the plain `sqlite3` shell of a current stable
 * distribution, with none of the app's functions registered (ADR 0036).
 */
describe("an app-created SQLite database written by the sqlite3 shell", () => {
  let dir: string;
  let file: string;
  let userId: string;
  beforeAll(async () => {
    dir = await makeTempDir("vmj-shell-");
    file = path.join(dir, "journal.db");
    const database = await openDatabase({ kind: "sqlite", file });
    userId = (await createBareUser(database.db, "shell")).id;
    await new MemoriesRepo(database.db, "sqlite").insert({
      userId,
      audioId: null,
      title: "Written by the app",
      recordedAt: "2020-05-01T10:00:00.000Z",
      status: "saved",
    });
    await database.close();
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("accepts an insert and updates, which the app then lists, and search finds after a rebuild", async () => {
    expect(await shell(file, "select sqlite_version();")).toMatch(/^3\.40\./);
    await shell(
      file,
      `insert into memories (id, user_id, journal_id, storyteller_id, title, transcript, recorded_at, status, created_at, updated_at)
        values ('from-shell', '${userId}', '${ownJournalId(userId)}', '${ownMemberId(userId)}', 'Typed in the shell', 'about the lighthouse',
          '2021-06-01T10:00:00.000Z', 'processing', '2021-06-01T10:00:00.000Z', '2021-06-01T10:00:00.000Z');
       update memories set status = 'saved', title = 'Lighthouse keeper' where id = 'from-shell';
       update memories set title = 'Edited in the shell' where title = 'Written by the app';`,
    );

    const database = await openDatabase({ kind: "sqlite", file });
    try {
      const repo = new MemoriesRepo(database.db, "sqlite");
      const scope = { journalId: ownJournalId(userId), savedOnly: true };
      const listed = await repo.list(scope, 1);
      expect(listed.total).toBe(2);
      expect(listed.rows.map((row) => [row.id === "from-shell", row.title])).toEqual([
        [true, "Lighthouse keeper"],
        [false, "Edited in the shell"],
      ]);
      expect(await repo.months(scope)).toEqual([
        { month: "2021-06", count: 1 },
        { month: "2020-05", count: 1 },
      ]);
      // The shell cannot write the app's words: until the rebuild, search misses them.
      expect((await repo.search(scope, ["lighthouse"], 1)).total).toBe(0);
    } finally {
      await database.close();
    }

    const rebuilt = await searchIndexCli(file, ["rebuild"]);
    expect(rebuilt.out).toContain("Indexed 2 memories for search.");
    expect(rebuilt.code).toBe(0);

    const reopened = await openDatabase({ kind: "sqlite", file });
    try {
      const repo = new MemoriesRepo(reopened.db, "sqlite");
      const scope = { journalId: ownJournalId(userId), savedOnly: false };
      const search = async (query: string) =>
        (await repo.search(scope, [query], 1)).rows.map((row) => row.title);
      expect(await search("lighthouse")).toEqual(["Lighthouse keeper"]);
      expect(await search("edited")).toEqual(["Edited in the shell"]);
      expect(await search("written")).toEqual([]);
    } finally {
      await reopened.close();
    }
    // And the shell can still write after the app did.
    await shell(file, "delete from memories where id = 'from-shell';");
    expect(await shell(file, "select count(*) from memories;")).toBe("1\n");
  }, 60_000);

  it("prints its usage for anything but rebuild", async () => {
    const usage = await searchIndexCli(file, ["fix"]);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain("Usage: npm run search-index -- rebuild");
  }, 30_000);
});
