import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "../ids";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
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
