import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIST_CHANGES_KEPT } from "../db/migrations/0011-list-changes";
import { createBareUser } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { MemoriesRepo } from "./memories.repo";

/** Migration 0011: the triggers log each revision's change to a user's list, and keep the last. */
describe.each(DATABASE_KINDS)("the list change log on %s", (kind) => {
  let t: TestDatabase;
  let repo: MemoriesRepo;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    repo = new MemoriesRepo(t.handle.db, t.handle.kind);
  });
  afterAll(() => t.cleanup());

  const changesOf = async (userId: string) =>
    (
      await t.handle.db
        .selectFrom("memory_list_changes")
        .select(["revision", "recorded_at", "seq", "saved", "delta"])
        .where("user_id", "=", userId)
        .orderBy("revision")
        .execute()
    ).map((row) => ({
      revision: Number(row.revision),
      recordedAt: row.recorded_at,
      seq: Number(row.seq),
      saved: Number(row.saved),
      delta: Number(row.delta),
    }));

  const revisionOf = async (userId: string) =>
    Number(
      (
        await t.handle.db
          .selectFrom("memory_counts")
          .select("revision")
          .where("user_id", "=", userId)
          .executeTakeFirstOrThrow()
      ).revision,
    );

  it("logs an insert, a status change, an edit of recorded_at and a delete, one per revision", async () => {
    const user = await createBareUser(t.handle.db);
    const first = "2024-05-01T10:00:00.000Z";
    const moved = "2001-01-01T00:00:00.000Z";
    const memory = await repo.insert({
      userId: user.id,
      audioId: null,
      recordedAt: first,
      status: "processing",
    });
    expect(await repo.markSaved(memory.id)).toBe(true);
    expect(
      await repo.update(memory.id, {
        title: "Moved",
        transcript: "",
        summary: "",
        recordedAt: moved,
        tags: [],
      }),
    ).toMatchObject({ id: memory.id });
    await t.handle.db.transaction().execute((trx) => repo.delete(memory.id, trx));
    const key = { seq: Number(memory.seq) };
    expect(await changesOf(user.id)).toEqual([
      { revision: 1, recordedAt: first, ...key, saved: 0, delta: 1 },
      { revision: 2, recordedAt: first, ...key, saved: 0, delta: -1 },
      { revision: 3, recordedAt: first, ...key, saved: 1, delta: 1 },
      { revision: 4, recordedAt: first, ...key, saved: 1, delta: -1 },
      { revision: 5, recordedAt: moved, ...key, saved: 1, delta: 1 },
      { revision: 6, recordedAt: moved, ...key, saved: 1, delta: -1 },
    ]);
    expect(await revisionOf(user.id)).toBe(6);
  });

  it(`keeps the last ${LIST_CHANGES_KEPT} changes of a user, and none once the user is gone`, async () => {
    const user = await createBareUser(t.handle.db);
    const extra = 5;
    await repo.insertMany(
      Array.from({ length: LIST_CHANGES_KEPT + extra }, (_, i) => ({
        userId: user.id,
        audioId: null,
        recordedAt: new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString(),
        status: "saved" as const,
      })),
    );
    const changes = await changesOf(user.id);
    expect(changes).toHaveLength(LIST_CHANGES_KEPT);
    expect(changes[0]?.revision).toBe(extra + 1);
    expect(changes.at(-1)?.revision).toBe(LIST_CHANGES_KEPT + extra);

    await t.handle.db.deleteFrom("users").where("id", "=", user.id).execute();
    expect(await changesOf(user.id)).toEqual([]);
  });
});
