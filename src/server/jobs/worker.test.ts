import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/connection";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { JobsRepo } from "./jobs.repo";
import { JobAbortedError, type JobHandler, type JobObserver, JobWorker } from "./worker";

/** An observer that keeps what the worker told it (the metrics' view). */
function recordingObserver() {
  const outcomes: string[] = [];
  const observer: JobObserver = {
    jobFinished: (kind, outcome, seconds) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      outcomes.push(`${kind} ${outcome}`);
    },
  };
  return { outcomes, observer };
}

const KIND = "process-memory";

describe("JobWorker", () => {
  let testDb: TestDatabase;
  let second: DatabaseHandle;

  beforeAll(async () => {
    testDb = await createTestDatabase("postgres");
    // A second connection pool on the same schema: another app instance.
    second = await openDatabase(testDb.target);
  });
  afterAll(async () => {
    await second.close();
    await testDb.cleanup();
  });

  it("two workers on PostgreSQL never take the same job", async () => {
    const repoA = new JobsRepo(testDb.handle.db, "postgres");
    const repoB = new JobsRepo(second.db, "postgres");
    const ids = Array.from({ length: 60 }, (_, i) => `memory-${i}`);
    for (const id of ids) await repoA.enqueue({ kind: KIND, targetId: id });
    const seen: { id: string; worker: string }[] = [];
    const handler = (worker: string) => ({
      run: async (targetId: string) => {
        seen.push({ id: targetId, worker });
        await new Promise((r) => setTimeout(r, Math.random() * 10));
      },
    });
    const a = new JobWorker(repoA, { [KIND]: handler("a") }, { concurrency: 4, pollMs: 20 });
    const b = new JobWorker(repoB, { [KIND]: handler("b") }, { concurrency: 4, pollMs: 20 });
    a.start();
    b.start();
    const deadline = Date.now() + 20_000;
    while (seen.length < ids.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await Promise.all([a.stop(), b.stop()]);
    expect(seen.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(new Set(seen.map((s) => s.worker)).size).toBe(2);
    const rows = await testDb.handle.db.selectFrom("jobs").select(["status", "attempts"]).execute();
    expect(rows.every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
  });

  it("retries a throwing job with backoff, then gives up and says so", async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
    const repo = new JobsRepo(testDb.handle.db, "postgres");
    await repo.enqueue({ kind: KIND, targetId: "flaky" });
    let runs = 0;
    const gaveUp: string[] = [];
    const { outcomes, observer } = recordingObserver();
    const worker = new JobWorker(
      repo,
      {
        [KIND]: {
          run: async () => {
            runs++;
            throw new Error(`attempt ${runs} failed`);
          },
          giveUp: async (id, error) => {
            gaveUp.push(`${id}: ${error.message}`);
          },
        },
      },
      { concurrency: 1, maxAttempts: 3, backoffMs: 10, pollMs: 10, observer },
    );
    worker.start();
    const deadline = Date.now() + 10_000;
    while (gaveUp.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await worker.stop();
    expect(runs).toBe(3);
    expect(gaveUp).toEqual(["flaky: attempt 3 failed"]);
    expect(outcomes).toEqual([`${KIND} retried`, `${KIND} retried`, `${KIND} failed`]);
    expect(await repo.find(KIND, "flaky")).toMatchObject({
      status: "failed",
      last_error: "attempt 3 failed",
    });
  });

  it("stops within its grace period even when a job runs long, leaving it to its lease", async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
    const repo = new JobsRepo(testDb.handle.db, "postgres");
    await repo.enqueue({ kind: KIND, targetId: "slow" });
    let release: () => void = () => {};
    let started = false;
    const worker = new JobWorker(
      repo,
      {
        [KIND]: {
          run: () =>
            new Promise<void>((resolve) => {
              started = true;
              release = resolve;
            }),
        },
      },
      { concurrency: 1, pollMs: 10, leaseMs: 60_000 },
    );
    worker.start();
    while (!started) await new Promise((r) => setTimeout(r, 10));
    const before = Date.now();
    await worker.stop(100);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect((await repo.find(KIND, "slow"))?.status).toBe("running");
    release();
    await vi.waitFor(async () => expect((await repo.find(KIND, "slow"))?.status).toBe("done"));
  });

  it("drops a job whose payload is invalid when taken", async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
    const now = new Date().toISOString();
    await testDb.handle.db
      .insertInto("jobs")
      .values({
        id: "bad",
        kind: KIND,
        target_id: "x".repeat(500),
        status: "queued",
        attempts: 0,
        run_after: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    let ran = false;
    const { outcomes, observer } = recordingObserver();
    const worker = new JobWorker(
      new JobsRepo(testDb.handle.db, "postgres"),
      {
        [KIND]: {
          run: async () => {
            ran = true;
          },
        },
      },
      { concurrency: 1, observer },
    );
    expect(await worker.drain()).toBe(1);
    expect(ran).toBe(false);
    expect(outcomes).toEqual([`${KIND} dropped`]);
    const row = await testDb.handle.db.selectFrom("jobs").selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe("failed");
    expect(row.last_error).toMatch(/Invalid payload/);
  });
});

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A handler that works until its signal is aborted, then throws what the signal says. `signal` is
 * its first run's (a job left to its lease may be run again once the lease lapses).
 */
function untilAborted() {
  const state = { signal: null as AbortSignal | null, gaveUp: false };
  const handler: JobHandler = {
    run: (_id, _job, signal) =>
      new Promise<void>((_resolve, reject) => {
        state.signal ??= signal;
        signal.addEventListener("abort", () => reject(signal.reason));
      }),
    giveUp: async () => {
      state.gaveUp = true;
    },
  };
  return { state, handler };
}

describe.each(DATABASE_KINDS)("JobWorker leases on %s", (kind) => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await testDb.cleanup();
  });

  it("aborts the job when a heartbeat finds another worker holds it, and records nothing", async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
    const repo = new JobsRepo(testDb.handle.db, kind);
    await repo.enqueue({ kind: KIND, targetId: "taken" });
    const { state, handler } = untilAborted();
    const { outcomes, observer } = recordingObserver();
    // maxAttempts 1: were the abort treated as a failure, this would mark it failed for good.
    const a = new JobWorker(
      repo,
      { [KIND]: handler },
      { concurrency: 1, pollMs: 10, leaseMs: 300, maxAttempts: 1, workerId: "worker-a", observer },
    );
    a.start();
    await until(() => state.signal !== null);
    // Worker B takes the job as it may once A's lease has lapsed (B's clock is past A's lease).
    const taken = await new JobsRepo(testDb.handle.db, kind).claim(
      "worker-b",
      60_000,
      new Date(Date.now() + 1_000),
    );
    expect(taken?.id).toBeDefined();
    await until(() => state.signal?.aborted === true, 2_000);
    expect(state.signal?.reason).toBeInstanceOf(JobAbortedError);
    expect(String(state.signal?.reason)).toMatch(/another worker holds the job/);
    await a.stop();
    expect(state.gaveUp).toBe(false);
    expect(outcomes).toEqual([`${KIND} abandoned`]);
    expect(await repo.find(KIND, "taken")).toMatchObject({
      status: "running",
      locked_by: "worker-b",
      attempts: 2,
      last_error: null,
    });
  });

  it("aborts the job when no renewal gets through before its lease ends", async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
    // Every renewal fails (a lost database connection): the lease lapses, whoever holds it next.
    class Unreachable extends JobsRepo {
      override async extendLease(): Promise<boolean> {
        throw new Error("connection terminated");
      }
    }
    const repo = new Unreachable(testDb.handle.db, kind);
    await repo.enqueue({ kind: KIND, targetId: "cut-off" });
    const { state, handler } = untilAborted();
    const a = new JobWorker(
      repo,
      { [KIND]: handler },
      { concurrency: 1, pollMs: 10, leaseMs: 300, workerId: "worker-a" },
    );
    const started = Date.now();
    a.start();
    await until(() => state.signal?.aborted === true, 2_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(String(state.signal?.reason)).toMatch(/lease expired/);
    await a.stop();
    expect(state.gaveUp).toBe(false);
    // Left to its lease (once lapsed, any worker takes it again), with no failure recorded.
    expect(await repo.find(KIND, "cut-off")).toMatchObject({
      status: "running",
      last_error: null,
    });
  });

  it("aborts jobs still running when stop's grace period ends, leaving them to their lease", async () => {
    await testDb.handle.db.deleteFrom("jobs").execute();
    const repo = new JobsRepo(testDb.handle.db, kind);
    await repo.enqueue({ kind: KIND, targetId: "long" });
    const { state, handler } = untilAborted();
    const a = new JobWorker(repo, { [KIND]: handler }, { concurrency: 1, pollMs: 10 });
    a.start();
    await until(() => state.signal !== null);
    await a.stop(100);
    expect(state.signal?.aborted).toBe(true);
    expect(String(state.signal?.reason)).toMatch(/worker stopped/);
    await new Promise((r) => setTimeout(r, 50));
    expect(await repo.find(KIND, "long")).toMatchObject({ status: "running", last_error: null });
  });
});
