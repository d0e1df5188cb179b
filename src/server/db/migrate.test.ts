import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "../ids";
import { MemoriesRepo } from "../memories/memories.repo";
import { createBareUser } from "../test/auth-helpers";
import {
  createTestDatabase,
  DATABASE_KINDS,
  makeTempDir,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from "../test/harness";
import { type DatabaseKind, type DatabaseTarget, openDatabase } from "./connection";
import { isUniqueViolation } from "./constraint-errors";
import { migrateToLatest } from "./migrate";

describe.each(DATABASE_KINDS)("schema on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t.cleanup());

  it("creates every table", async () => {
    const tables = await t.handle.db.introspection.getTables();
    const names = tables.map((table) => table.name);
    for (const name of [
      "users",
      "sessions",
      "password_reset_tokens",
      "audio_files",
      "memories",
      "comments",
      "jobs",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("migrates idempotently", async () => {
    await expect(migrateToLatest(t.handle)).resolves.toBeUndefined();
  });

  it("enforces foreign keys", async () => {
    const now = nowIso();
    await expect(
      t.handle.db
        .insertInto("sessions")
        .values({
          id_hash: newId(),
          user_id: "missing",
          created_at: now,
          last_seen_at: now,
          expires_at: now,
        })
        .execute(),
    ).rejects.toThrow();
  });

  it("keeps the full-text index in step with the repository's writes", async () => {
    const owner = await createBareUser(t.handle.db, "indexed");
    const repo = new MemoriesRepo(t.handle.db, kind);
    const { id } = await repo.insert({
      userId: owner.id,
      audioId: null,
      title: "Sandcastles at the beach",
      transcript: "we built castles",
      tags: ["beach day"],
      status: "saved",
    });
    const search = async (term: string) =>
      (await repo.search({ userId: owner.id, savedOnly: false }, [term], 1)).rows.map(
        (row) => row.id,
      );
    expect(await search("castl")).toEqual([id]);
    const edit = { transcript: "", summary: "", recordedAt: nowIso(), tags: [] };
    await repo.update(id, { ...edit, title: "Picnic" });
    expect(await search("picnic")).toEqual([id]);
    expect(await search("sandcastles")).toEqual([]);
    await t.handle.db.transaction().execute((trx) => repo.delete(id, trx));
    expect(await search("picnic")).toEqual([]);
  });
});

/**
 * A database as the previous version left it (migrations up to 0012, memories written through
 * the triggers of 0008 to 0011; dumped by that version's code into test/fixtures), upgraded by
 * this one: counts per month, the index rebuilt with the app's words, and no trigger left that
 * calls a function only the app registers.
 */
/** Three accounts of one address, as versions before one-account-per-email allowed. */
const sharedEmailAccounts = (kind: DatabaseKind) =>
  ["2019-01-01", "2020-01-01", "2021-01-01"]
    .map(
      (day, i) =>
        `INSERT INTO ${kind === "postgres" ? "public." : ""}users VALUES ('shared-${i}', 'shared${i}', 'shared${i}', NULL, 'Rose@Example.org', 'rose@example.org', 'x', 1, '${day}T00:00:00.000Z', '${day}T00:00:00.000Z');`,
    )
    .join("\n");

describe.each(DATABASE_KINDS)("upgrade of a database at 0012 on %s", (kind) => {
  let target: DatabaseTarget;
  let cleanup = async (): Promise<unknown> => undefined;
  beforeAll(async () => {
    const dump =
      (await readFile(
        path.join(import.meta.dirname, "..", "test", "fixtures", `journal-at-0012.${kind}.sql`),
        "utf8",
      )) + sharedEmailAccounts(kind);
    if (kind === "sqlite") {
      const dir = await makeTempDir("vmj-upgrade-");
      const file = path.join(dir, "journal.db");
      // Loaded by Debian's sqlite3 shell, as an operator restoring a dump would.
      await new Promise<void>((resolve, reject) => {
        const shell = execFile("/usr/bin/sqlite3", [file], (error) =>
          error ? reject(error) : resolve(),
        );
        shell.stdin?.end(dump);
      });
      target = { kind: "sqlite", file };
      cleanup = () => rm(dir, { recursive: true, force: true });
    } else {
      const name = `vmj_upgrade_${newId()
        .replace(/[^A-Za-z0-9]/g, "")
        .toLowerCase()}`;
      const admin = async (text: string, database?: string) => {
        const url = new URL(TEST_POSTGRES_URL);
        if (database) url.pathname = `/${database}`;
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        await client.query(text).finally(() => client.end());
      };
      await admin(`create database "${name}"`);
      await admin(dump, name);
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${name}`;
      target = { kind: "postgres", url: url.toString() };
      cleanup = () => admin(`drop database if exists "${name}" with (force)`);
    }
  });
  afterAll(async () => cleanup());

  it("leaves a shared email with its oldest account only, and refuses a second one from then on", async () => {
    const handle = await openDatabase(target);
    try {
      const { db } = handle;
      const shared = await db
        .selectFrom("users")
        .select(["id", "email"])
        .where("id", "like", "shared-%")
        .orderBy("id")
        .execute();
      expect(shared).toEqual([
        { id: "shared-0", email: "Rose@Example.org" },
        { id: "shared-1", email: null },
        { id: "shared-2", email: null },
      ]);
      await expect(
        db
          .updateTable("users")
          .set({ email: "rose@example.org", email_lower: "rose@example.org" })
          .where("id", "=", "shared-1")
          .execute(),
      ).rejects.toSatisfy(isUniqueViolation);
    } finally {
      await handle.close();
    }
  });

  it("offers the memories transcribed before engines were recorded again, with Whisper only", async () => {
    const handle = await openDatabase(target);
    try {
      const { db } = handle;
      const user = await db
        .selectFrom("memories")
        .select("user_id")
        .where("id", "=", "m-lighthouse")
        .executeTakeFirstOrThrow();
      const memories = await db
        .selectFrom("memories")
        .select(["id", "transcript_engine", "transcript_edited", "proposed_transcript"])
        .where("user_id", "=", user.user_id)
        .orderBy("seq")
        .execute();
      for (const memory of memories) {
        expect(memory).toMatchObject({
          transcript_engine: null,
          transcript_edited: 0,
          proposed_transcript: null,
        });
      }
      const repo = new MemoriesRepo(db, kind);
      // Saved ones with a transcript; the one still processing is not.
      expect(await repo.listRetranscribable(user.user_id ?? "", true)).toEqual([
        "m-lighthouse",
        "m-harbour",
      ]);
      expect(await repo.listRetranscribable(user.user_id ?? "", false)).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it("counts memories per month, indexes them for search and lists every page", async () => {
    const handle = await openDatabase(target);
    try {
      const { db } = handle;
      const user = await db.selectFrom("users").select("id").executeTakeFirstOrThrow();
      const repo = new MemoriesRepo(db, kind);
      const scope = { userId: user.id, savedOnly: false };
      expect(await repo.months(scope)).toEqual([
        { month: "2024-03", count: 1 },
        { month: "1998-07", count: 2 },
      ]);
      expect(await repo.months({ ...scope, savedOnly: true })).toEqual([
        { month: "2024-03", count: 1 },
        { month: "1998-07", count: 1 },
      ]);
      const listed = await repo.list(scope, 1);
      expect(listed.total).toBe(3);
      expect(listed.rows.map((r) => r.title)).toEqual(["Harbour", "Garden", "Old lighthouse"]);
      const found = await repo.search(scope, ["lighth"], 1);
      expect(found.rows.map((r) => r.title)).toEqual(["Old lighthouse"]);
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      for (const gone of ["memory_counts", "memory_list_changes", "memory_page_anchors"]) {
        expect(tables).not.toContain(gone);
      }
      // The app writes on as before: a new memory is counted and found.
      await repo.insert({
        userId: user.id,
        audioId: null,
        title: "Lighthouse again",
        status: "saved",
      });
      expect((await repo.search(scope, ["lighth"], 1)).total).toBe(2);
      expect((await repo.list(scope, 1)).total).toBe(4);
      if (kind === "sqlite") {
        const triggers = await sql<{ sql: string }>`select sql from sqlite_master
          where type = 'trigger'`.execute(db);
        expect(triggers.rows.length).toBeGreaterThan(0);
        for (const trigger of triggers.rows)
          expect(trigger.sql).not.toContain("memory_search_words");
      }
    } finally {
      await handle.close();
    }
  });
});

describe.each(DATABASE_KINDS)("upgrade with relatives' news waiting on %s", (kind) => {
  it("queues news for each owner with an address on a link, and drops the sending claim", async () => {
    const t = await createTestDatabase(kind, { upTo: "0018-transcript-proposals" });
    try {
      const [withNews, without] = [
        await createBareUser(t.handle.db),
        await createBareUser(t.handle.db),
      ];
      const now = nowIso();
      for (const [link, user] of [
        ["l1", withNews],
        ["l2", withNews],
        ["l3", without],
      ] as const) {
        await sql`insert into share_links (id, user_id, token_hash, label, created_at)
          values (${link}, ${user.id}, ${newId()}, 'Grandpa', ${now})`.execute(t.handle.db);
      }
      for (const link of ["l1", "l2"]) {
        await sql`insert into share_link_subscriptions
          (id, share_link_id, email, token_sealed, created_at, covered_until, last_sent_at, locked_until)
          values (${newId()}, ${link}, 'g@example.org', 'x', ${now}, ${now}, ${now}, ${now})`.execute(
          t.handle.db,
        );
      }
      await migrateToLatest(t.handle);
      const jobs = await t.handle.db.selectFrom("jobs").selectAll().execute();
      expect(jobs).toMatchObject([
        { kind: "relative-news", target_id: withNews.id, status: "queued" },
      ]);
      expect(jobs[0]?.run_after && jobs[0].run_after <= nowIso()).toBe(true);
      const columns = (await t.handle.db.introspection.getTables())
        .find((table) => table.name === "share_link_subscriptions")
        ?.columns.map((column) => column.name);
      expect(columns).toContain("covered_until");
      expect(columns).not.toContain("locked_until");
      expect(columns).not.toContain("last_sent_at");
    } finally {
      await t.cleanup();
    }
  });
});
