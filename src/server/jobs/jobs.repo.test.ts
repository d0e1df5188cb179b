import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import type { JobKind } from "./job-kinds";
import { JobsRepo } from "./jobs.repo";

const KIND = "process-memory";

describe.each(DATABASE_KINDS)("JobsRepo on %s", (kind) => {
  let testDb: TestDatabase;
  let repo: JobsRepo;

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    repo = new JobsRepo(testDb.handle.db, kind);
  });
  afterAll(async () => {
    await testDb.cleanup();
  });
  beforeEach(async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
  });

  it("refuses an unknown kind or an invalid payload when queued", async () => {
    await expect(repo.enqueue({ kind: "mine-bitcoin" as JobKind, targetId: "m1" })).rejects.toThrow(
      /Unknown job kind/,
    );
    await expect(repo.enqueue({ kind: KIND, targetId: "" })).rejects.toThrow(/Invalid payload/);
    expect(await testDb.handle.db.selectFrom("jobs").selectAll().execute()).toEqual([]);
  });

  it("claims a due job once, leaving none for a second worker", async () => {
    await repo.enqueue({ kind: KIND, targetId: "m1" });
    const job = await repo.claim("a", 60_000);
    expect(job).toMatchObject({
      kind: KIND,
      target_id: "m1",
      status: "running",
      locked_by: "a",
      attempts: 1,
    });
    expect(await repo.claim("b", 60_000)).toBeNull();
  });

  it("does not claim a job before run_after", async () => {
    await repo.enqueue({ kind: KIND, targetId: "m1", runAfter: new Date(Date.now() + 60_000) });
    expect(await repo.claim("a", 60_000)).toBeNull();
  });

  it("with join, a waiting job keeps its earlier time; a finished one is queued anew", async () => {
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    const runAfter = async () => new Date((await repo.find(KIND, "m1"))?.run_after ?? 0);
    await repo.enqueue({ kind: KIND, targetId: "m1", runAfter: at(60), join: true });
    const first = await runAfter();
    await repo.enqueue({ kind: KIND, targetId: "m1", runAfter: at(61), join: true });
    expect(await runAfter()).toEqual(first);
    await repo.enqueue({ kind: KIND, targetId: "m1", runAfter: at(30), join: true });
    expect((await runAfter()) < first).toBe(true);
    const job = await repo.claim("a", 60_000, at(31));
    await repo.complete(job?.id ?? "", "a");
    await repo.enqueue({ kind: KIND, targetId: "m1", runAfter: at(90), join: true });
    expect(await repo.find(KIND, "m1")).toMatchObject({ status: "queued", attempts: 0 });
    expect((await runAfter()) > first).toBe(true);
    // Done for now, and again later.
    const again = await repo.claim("a", 60_000, at(91));
    const later = at(150);
    expect(await repo.complete(again?.id ?? "", "a", later)).toBe(true);
    expect(await repo.find(KIND, "m1")).toMatchObject({ status: "queued", attempts: 0 });
    expect(await runAfter()).toEqual(later);
  });

  it("retakes a job whose lease expired (its worker died)", async () => {
    await repo.enqueue({ kind: KIND, targetId: "m1" });
    const first = await repo.claim("dead", 60_000);
    expect(await repo.claim("b", 60_000)).toBeNull();
    const later = new Date(Date.now() + 61_000);
    const retaken = await repo.claim("b", 60_000, later);
    expect(retaken).toMatchObject({ id: first?.id, locked_by: "b", attempts: 2 });
    // The dead worker can no longer complete or fail it.
    expect(await repo.complete(first?.id ?? "", "dead")).toBe(false);
    expect(await repo.complete(first?.id ?? "", "b")).toBe(true);
    expect((await repo.find(KIND, "m1"))?.status).toBe("done");
  });

  it("keeps a lease alive with extendLease", async () => {
    await repo.enqueue({ kind: KIND, targetId: "m1" });
    const job = await repo.claim("a", 10);
    expect(await repo.extendLease(job?.id ?? "", "a", 60_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(await repo.claim("b", 60_000)).toBeNull();
    expect(await repo.extendLease(job?.id ?? "", "b", 60_000)).toBe(false);
  });

  it("fails with backoff, then for good", async () => {
    await repo.enqueue({ kind: KIND, targetId: "m1" });
    const job = await repo.claim("a", 60_000);
    const retryAt = new Date(Date.now() + 5_000);
    expect(await repo.fail(job?.id ?? "", "a", "boom", retryAt)).toBe(true);
    expect(await repo.find(KIND, "m1")).toMatchObject({
      status: "queued",
      last_error: "boom",
      run_after: retryAt.toISOString(),
      locked_by: null,
    });
    expect(await repo.claim("a", 60_000)).toBeNull();
    const again = await repo.claim("a", 60_000, new Date(retryAt.getTime() + 1));
    expect(again?.attempts).toBe(2);
    await repo.fail(again?.id ?? "", "a", "boom twice", null);
    expect((await repo.find(KIND, "m1"))?.status).toBe("failed");
    expect(await repo.claim("a", 60_000, new Date(Date.now() + 3_600_000))).toBeNull();
  });

  it("re-queues a finished job for the same target (a retry)", async () => {
    await repo.enqueue({ kind: KIND, targetId: "m1" });
    const job = await repo.claim("a", 60_000);
    await repo.fail(job?.id ?? "", "a", "boom", null);
    await repo.enqueue({ kind: KIND, targetId: "m1" });
    expect(await repo.find(KIND, "m1")).toMatchObject({
      status: "queued",
      attempts: 0,
      last_error: null,
    });
    const count = await testDb.handle.db
      .selectFrom("jobs")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("queues inside a transaction that rolls back: nothing is queued", async () => {
    await testDb.handle.db
      .transaction()
      .execute(async (trx) => {
        await repo.enqueue({ kind: KIND, targetId: "m1" }, trx);
        throw new Error("rollback");
      })
      .catch(() => undefined);
    expect(await repo.find(KIND, "m1")).toBeNull();
  });

  it("housekeeping deletes finished jobs past retention and never queued or running ones", async () => {
    const now = new Date("2030-06-30T12:00:00.000Z");
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const rows: Array<[target: string, status: string, updatedAt: string]> = [
      ["done-old", "done", daysAgo(8)],
      ["done-recent", "done", daysAgo(6)],
      ["failed-old", "failed", daysAgo(31)],
      ["failed-recent", "failed", daysAgo(8)],
      ["queued-old", "queued", daysAgo(100)],
      ["running-old", "running", daysAgo(100)],
    ];
    for (const [target, status, updatedAt] of rows) {
      await repo.enqueue({ kind: KIND, targetId: target });
      // Set straight in the table: the states and ages come from years of use.
      await testDb.handle.db
        .updateTable("jobs")
        .set({ status, updated_at: updatedAt })
        .where("target_id", "=", target)
        .execute();
    }
    const cutoffs = { doneBefore: new Date(daysAgo(7)), failedBefore: new Date(daysAgo(30)) };
    expect(await repo.deleteFinished(cutoffs)).toBe(2);
    const left = await testDb.handle.db
      .selectFrom("jobs")
      .select("target_id")
      .orderBy("target_id")
      .execute();
    expect(left.map((r) => r.target_id)).toEqual([
      "done-recent",
      "failed-recent",
      "queued-old",
      "running-old",
    ]);
    // Two instances sweeping at once: each row goes once, neither fails.
    expect(await Promise.all([repo.deleteFinished(cutoffs), repo.deleteFinished(cutoffs)])).toEqual(
      [0, 0],
    );
    // A deleted job's target can be queued again.
    await repo.enqueue({ kind: KIND, targetId: "done-old" });
    expect(await repo.find(KIND, "done-old")).toMatchObject({ status: "queued" });
  });
});
