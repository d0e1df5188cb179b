import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "../ids";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { CommentsRepo, toCommentDto } from "./comments.repo";

describe.each(DATABASE_KINDS)("comments repo on %s", (kind) => {
  let t: TestDatabase;
  let repo: CommentsRepo;
  let memoryId: string;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    repo = new CommentsRepo(t.handle.db);
    memoryId = newId();
    const now = nowIso();
    await t.handle.db
      .insertInto("memories")
      .values({
        id: memoryId,
        user_id: null,
        anon_owner_hash: null,
        claim_expires_at: null,
        audio_id: null,
        title: "t",
        transcript: "",
        summary: "",
        scores: "{}",
        duration: 0,
        recorded_at: now,
        tags: "[]",
        status: "saved",
        stage: null,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  afterAll(async () => t.cleanup());

  it("creates, lists newest first, counts and transcribes", async () => {
    const first = await repo.create({ memoryId, commenterName: "Grandma", audioId: null });
    await new Promise((r) => setTimeout(r, 5));
    const second = await repo.create({ memoryId, commenterName: "Uncle Bob", audioId: null });
    expect((await repo.listForMemory(memoryId)).map((c) => c.id)).toEqual([second.id, first.id]);
    expect(await repo.countForMemory(memoryId)).toBe(2);
    await repo.setTranscript(first.id, "So proud of you");
    const saved = await repo.findById(first.id);
    expect(saved && toCommentDto(saved)).toMatchObject({
      commenterName: "Grandma",
      transcript: "So proud of you",
      status: "saved",
      error: null,
      memoryId,
    });
    await repo.markFailed(second.id, "transcribe.failed");
    expect((await repo.findById(second.id))?.status).toBe("failed");
  });

  it("deletes and reports the audio to remove", async () => {
    const comment = await repo.create({ memoryId, commenterName: "X", audioId: null });
    expect(await repo.delete(comment.id)).toEqual({ audioId: null });
    expect(await repo.delete(comment.id)).toBeUndefined();
  });

  it("is removed with its memory", async () => {
    const comment = await repo.create({ memoryId, commenterName: "Y", audioId: null });
    await t.handle.db.deleteFrom("memories").where("id", "=", memoryId).execute();
    expect(await repo.findById(comment.id)).toBeUndefined();
  });
});
