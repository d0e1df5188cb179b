import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "../ids";
import { MemoriesRepo } from "../memories/memories.repo";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { UsersRepo } from "../users/users.repo";
import type { DatabaseHandle } from "./connection";
import { migrateToLatest, migrateUpTo } from "./migrate";
import type { Database } from "./schema";

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

  it("keeps the full-text index in step with memories", async () => {
    const now = nowIso();
    const id = newId();
    await t.handle.db
      .insertInto("memories")
      .values({
        id,
        user_id: null,
        anon_owner_hash: null,
        claim_expires_at: null,
        audio_id: null,
        title: "Sandcastles at the beach",
        transcript: "we built castles",
        summary: "",
        scores: "{}",
        duration: 1,
        recorded_at: now,
        tags: JSON.stringify(["beach day"]),
        status: "saved",
        stage: null,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const search = async (term: string) =>
      kind === "sqlite"
        ? (
            await sql<{
              id: string;
            }>`select m.id from memories_fts f join memories m on m.seq = f.rowid where memories_fts match ${`"${term}"*`}`.execute(
              t.handle.db,
            )
          ).rows
        : (
            await sql<{
              id: string;
            }>`select id from memories where search_vector @@ to_tsquery('simple', ${`${term}:*`})`.execute(
              t.handle.db,
            )
          ).rows;
    expect(await search("castl")).toEqual([{ id }]);
    await t.handle.db
      .updateTable("memories")
      .set({ title: "Picnic" })
      .where("id", "=", id)
      .execute();
    expect(await search("picnic")).toEqual([{ id }]);
    expect(await search("sandcastles")).toEqual([]);
    await t.handle.db.deleteFrom("memories").where("id", "=", id).execute();
    expect(await search("castl")).toEqual([]);
  });
});

describe("migration 0008 on a journal that exists (SQLite)", () => {
  it("counts existing memories and indexes them for their owner's search", async () => {
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(":memory:") }),
    });
    try {
      // Everything before 0008, then rows as the repository writes them, then 0008.
      await migrateUpTo(db as Kysely<unknown>, "sqlite", "0007-memory-language");
      const user = await new UsersRepo(db).create({
        username: "before",
        displayName: null,
        email: null,
        passwordHash: "x",
        isPublic: true,
      });
      const repo = new MemoriesRepo(db, "sqlite");
      await repo.insert({
        userId: user.id,
        audioId: null,
        title: "Old lighthouse",
        status: "saved",
      });
      await repo.insert({ userId: user.id, audioId: null, status: "processing" });
      await repo.insert({
        userId: null,
        audioId: null,
        title: "Anonymous lighthouse",
        status: "saved",
      });
      const handle: DatabaseHandle = {
        db,
        kind: "sqlite",
        ping: async () => undefined,
        close: () => db.destroy(),
      };
      await migrateToLatest(handle);
      const scope = { userId: user.id, savedOnly: false };
      expect(await repo.countOf(scope)).toBe(2);
      expect(await repo.countOf({ ...scope, savedOnly: true })).toBe(1);
      const found = await repo.search(scope, ["lighth"], 1);
      expect(found.rows.map((row) => row.title)).toEqual(["Old lighthouse"]);
    } finally {
      await db.destroy();
    }
  });
});

describe("migration 0009 on a journal that exists (SQLite)", () => {
  it("starts each user's list revision at 0 and raises it on a recorded_at edit only", async () => {
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(":memory:") }),
    });
    try {
      await migrateUpTo(db as Kysely<unknown>, "sqlite", "0008-counts-and-search-index");
      const user = await new UsersRepo(db).create({
        username: "before",
        displayName: null,
        email: null,
        passwordHash: "x",
        isPublic: true,
      });
      const repo = new MemoriesRepo(db, "sqlite");
      const memory = await repo.insert({ userId: user.id, audioId: null, status: "saved" });
      await repo.insert({ userId: user.id, audioId: null, status: "processing" });
      await migrateToLatest({
        db,
        kind: "sqlite",
        ping: async () => undefined,
        close: () => db.destroy(),
      });
      const counts = () =>
        db
          .selectFrom("memory_counts")
          .select(["total", "saved", "revision"])
          .where("user_id", "=", user.id)
          .executeTakeFirstOrThrow();
      expect(await counts()).toEqual({ total: 2, saved: 1, revision: 0 });
      const edit = { title: "t", transcript: "", summary: "", tags: [] };
      await repo.update(memory.id, { ...edit, recordedAt: memory.recorded_at });
      expect(await counts()).toEqual({ total: 2, saved: 1, revision: 0 });
      await repo.update(memory.id, { ...edit, recordedAt: "2001-01-01T00:00:00.000Z" });
      expect((await counts()).revision).toBeGreaterThan(0);
      expect(await counts()).toMatchObject({ total: 2, saved: 1 });
    } finally {
      await db.destroy();
    }
  });
});
