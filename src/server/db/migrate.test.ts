import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import { newId, nowIso } from "../ids";
import { MemoriesRepo, PAGE_ANCHOR_INTERVAL } from "../memories/memories.repo";
import { createBareUser } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import type { DatabaseHandle } from "./connection";
import { migrateToLatest, migrateUpTo } from "./migrate";
import { registerRelevanceFunction } from "./relevance";
import type { Database } from "./schema";
import { ownedPrefixQuery, registerSearchWordsFunction } from "./search-words";

/** A private SQLite database as the server opens one (with the triggers' and search's functions). */
function memorySqlite(): Kysely<Database> {
  const sqlite = new SqliteDatabase(":memory:");
  registerSearchWordsFunction(sqlite);
  registerRelevanceFunction(sqlite);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

function handleOf(db: Kysely<Database>): DatabaseHandle {
  return { db, kind: "sqlite", ping: async () => undefined, close: () => db.destroy() };
}

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
    const owner = await createBareUser(t.handle.db, "indexed");
    await t.handle.db
      .insertInto("memories")
      .values({
        id,
        user_id: owner.id,
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
            }>`select m.id from memories_fts f join memories m on m.seq = f.rowid where memories_fts match ${ownedPrefixQuery(owner.id, [term])}`.execute(
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
    const db = memorySqlite();
    try {
      // Everything before 0008, then rows as the repository writes them, then 0008.
      await migrateUpTo(db as Kysely<unknown>, "sqlite", "0007-memory-language");
      const user = await createBareUser(db, "before");
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
      await migrateToLatest(handleOf(db));
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
    const db = memorySqlite();
    try {
      await migrateUpTo(db as Kysely<unknown>, "sqlite", "0008-counts-and-search-index");
      const user = await createBareUser(db, "before");
      const repo = new MemoriesRepo(db, "sqlite");
      const memory = await repo.insert({ userId: user.id, audioId: null, status: "saved" });
      await repo.insert({ userId: user.id, audioId: null, status: "processing" });
      await migrateToLatest(handleOf(db));
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

describe("migration 0010 on a journal that exists (SQLite)", () => {
  it("indexes each memory's words under its owner only, and unclaimed ones once claimed", async () => {
    const db = memorySqlite();
    try {
      await migrateUpTo(db as Kysely<unknown>, "sqlite", "0008-counts-and-search-index");
      const [near, far] = await Promise.all(
        ["near", "far"].map((username) => createBareUser(db, username)),
      );
      if (!near || !far) throw new Error("users not created");
      const repo = new MemoriesRepo(db, "sqlite");
      const own = await repo.insert({
        userId: near.id,
        audioId: null,
        title: "Garden in the rain",
        status: "saved",
      });
      await repo.insert({
        userId: far.id,
        audioId: null,
        title: "Garden in the rain",
        status: "saved",
      });
      const unclaimed = await repo.insert({
        userId: null,
        audioId: null,
        title: "Garden party",
        status: "saved",
      });
      await migrateToLatest(handleOf(db));

      const search = async (userId: string, query: string) =>
        (await repo.search({ userId, savedOnly: false }, [query], 1)).rows.map((row) => row.id);
      expect(await search(near.id, "gard")).toEqual([own.id]);
      // Every indexed word carries its owner: nobody's search reads another family's entries.
      await sql`create virtual table temp.fts_terms using fts5vocab(main, memories_fts, 'row')`.execute(
        db,
      );
      const terms = await sql<{ term: string }>`select term from temp.fts_terms`.execute(db);
      const hexOf = (id: string) => Buffer.from(id, "utf8").toString("hex");
      expect(terms.rows.map((row) => row.term).sort()).toEqual(
        [near.id, far.id]
          .flatMap((id) => ["garden", "in", "rain", "the"].map((w) => `${hexOf(id)}x${w}`))
          .sort(),
      );

      await db
        .updateTable("memories")
        .set({ user_id: near.id })
        .where("id", "=", unclaimed.id)
        .execute();
      expect((await search(near.id, "gard")).sort()).toEqual([own.id, unclaimed.id].sort());
      expect(await search(far.id, "part")).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

describe("migration 0012 on a journal that exists (SQLite)", () => {
  it("starts with no stored anchors, then stores a walk's and deletes them with the user", async () => {
    const db = memorySqlite();
    try {
      await migrateUpTo(db as Kysely<unknown>, "sqlite", "0011-list-changes");
      const user = await createBareUser(db, "before");
      const repo = new MemoriesRepo(db, "sqlite");
      await repo.insertMany(
        Array.from({ length: 3 * PAGE_ANCHOR_INTERVAL }, (_, i) => ({
          userId: user.id,
          audioId: null,
          recordedAt: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
          status: "saved" as const,
        })),
      );
      await migrateToLatest(handleOf(db));
      const stored = () =>
        db
          .selectFrom("memory_page_anchors")
          .select(["scope", "revision"])
          .where("user_id", "=", user.id)
          .execute();
      expect(await stored()).toEqual([]);
      // A page one anchor deep: the walk after it stores the anchors at the current revision.
      await repo.list({ userId: user.id, savedOnly: false }, PAGE_ANCHOR_INTERVAL / PAGE_SIZE + 1);
      await repo.anchorWalksSettled();
      expect(await stored()).toEqual([{ scope: "all desc", revision: 3 * PAGE_ANCHOR_INTERVAL }]);
      await db.deleteFrom("users").where("id", "=", user.id).execute();
      expect(await stored()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
