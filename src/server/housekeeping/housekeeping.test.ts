import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SessionsRepo } from "../auth/sessions.repo";
import { ConfigError, loadConfig } from "../config";
import { hashToken, newSecretToken } from "../ids";
import { JobsRepo } from "../jobs/jobs.repo";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { createHousekeeping, Housekeeping, type SweepTask } from "./housekeeping";

const DAY_MS = 86_400_000;

function recordingLogger() {
  const lines: Array<{ level: "info" | "error"; obj: unknown; msg: string }> = [];
  return {
    lines,
    info: (obj: object, msg: string) => {
      lines.push({ level: "info", obj, msg });
    },
    error: (obj: object, msg: string) => {
      lines.push({ level: "error", obj, msg });
    },
  };
}

const counting = (name: string, count: number, calls: Date[] = []): SweepTask => ({
  name,
  sweep: async (now) => {
    calls.push(now);
    return count;
  },
});

describe("Housekeeping", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs every task, logs a failing one, and the tasks after it still run", async () => {
    const logger = recordingLogger();
    const now = new Date("2030-01-01T00:00:00.000Z");
    const after: Date[] = [];
    const housekeeping = new Housekeeping(
      [
        counting("first", 3),
        {
          name: "broken",
          sweep: async () => {
            throw new Error("disk on fire");
          },
        },
        counting("after", 1, after),
      ],
      60_000,
      logger,
    );

    const removed = await housekeeping.runOnce(now);

    expect(removed).toEqual({ first: 3, broken: null, after: 1 });
    expect(after).toEqual([now]);
    const failure = logger.lines.find((l) => l.level === "error");
    expect(failure?.msg).toBe("housekeeping task failed");
    expect(failure?.obj).toMatchObject({ task: "broken", err: { message: "disk on fire" } });
    expect(logger.lines.at(-1)).toEqual({
      level: "info",
      obj: { removed: { first: 3, broken: null, after: 1 } },
      msg: "housekeeping done",
    });
  });

  it("runs at start, then on its interval until stopped", async () => {
    vi.useFakeTimers();
    const calls: Date[] = [];
    const housekeeping = new Housekeeping([counting("t", 0, calls)], 1000, recordingLogger());
    housekeeping.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2500);
    expect(calls).toHaveLength(3);
    await housekeeping.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(3);
  });

  it("does nothing when its interval is 0 (HOUSEKEEPING_INTERVAL_MINUTES=0)", async () => {
    vi.useFakeTimers();
    const calls: Date[] = [];
    const housekeeping = new Housekeeping([counting("t", 0, calls)], 0, recordingLogger());
    housekeeping.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await housekeeping.stop();
    expect(calls).toEqual([]);
  });

  it("never overlaps a slow run with the next one", async () => {
    vi.useFakeTimers();
    let active = 0;
    let most = 0;
    const slow: SweepTask = {
      name: "slow",
      sweep: async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 2500));
        active -= 1;
        return 0;
      },
    };
    const housekeeping = new Housekeeping([slow], 1000, recordingLogger());
    housekeeping.start();
    await vi.advanceTimersByTimeAsync(6000);
    const stopped = housekeeping.stop();
    await vi.advanceTimersByTimeAsync(3000);
    await stopped;
    expect(most).toBe(1);
  });
});

describe("createHousekeeping", () => {
  it("refuses an unattached-upload retention within the claim window", async () => {
    const testDb = await createTestDatabase("sqlite");
    try {
      const config = loadConfig({
        CLAIM_WINDOW_HOURS: "24",
        UNATTACHED_UPLOAD_RETENTION_HOURS: "24",
      });
      expect(() =>
        createHousekeeping({ database: testDb.handle, config, logger: recordingLogger() }),
      ).toThrow(ConfigError);
    } finally {
      await testDb.cleanup();
    }
  });
});

describe.each(DATABASE_KINDS)("createHousekeeping on %s", (kind) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
  });
  afterAll(async () => testDb.cleanup());

  it("sweeps every table through its repository, with the configured retention", async () => {
    const config = loadConfig({ NODE_ENV: "test" });
    const { database } = { database: testDb.handle };
    const db = database.db;
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const { user } = await createUserWithSession({ database, config });

    // One row past its retention and one within it, for each table.
    const sessions = new SessionsRepo(db);
    for (const lastSeen of [ago((config.SESSION_IDLE_DAYS + 1) * DAY_MS), ago(DAY_MS)]) {
      await sessions.create({
        id_hash: hashToken(newSecretToken()),
        user_id: user.id,
        created_at: lastSeen,
        last_seen_at: lastSeen,
        expires_at: ago(-DAY_MS),
      });
    }
    for (const [userId, expiresAt] of [
      [user.id, ago(1000)],
      [(await createUserWithSession({ database, config })).user.id, ago(-60_000)],
    ] as const) {
      await db
        .insertInto("password_reset_tokens")
        .values({
          token_hash: hashToken(newSecretToken()),
          user_id: userId,
          expires_at: expiresAt,
          created_at: ago(0),
        })
        .execute();
    }
    const jobs = new JobsRepo(db, kind);
    for (const [target, days] of [
      ["old", config.FINISHED_JOB_RETENTION_DAYS + 1],
      ["recent", config.FINISHED_JOB_RETENTION_DAYS - 1],
    ] as const) {
      await jobs.enqueue({ kind: "process-memory", targetId: target });
      await db
        .updateTable("jobs")
        .set({ status: "done", updated_at: ago(days * DAY_MS) })
        .where("target_id", "=", target)
        .execute();
    }
    await db
      .insertInto("rate_limits")
      .values([
        { key: "ended", count: 1, expires_at: now.getTime() - 1 },
        { key: "running", count: 1, expires_at: now.getTime() + 60_000 },
      ])
      .execute();

    const uploads: Date[] = [];
    const logger = recordingLogger();
    const housekeeping = createHousekeeping({
      database,
      config,
      logger,
      extraTasks: [counting("unattached uploads", 5, uploads)],
    });
    expect(await housekeeping.runOnce(now)).toEqual({
      "expired sessions": 1,
      "expired reset tokens": 1,
      "finished jobs": 1,
      "ended rate-limit windows": 1,
      "unattached uploads": 5,
    });
    expect(uploads).toEqual([now]);
    expect(logger.lines.filter((l) => l.level === "error")).toEqual([]);
    // What is within its retention is still there; a second run finds nothing more.
    expect(await db.selectFrom("jobs").select("target_id").execute()).toEqual([
      { target_id: "recent" },
    ]);
    expect(await db.selectFrom("rate_limits").select("key").execute()).toEqual([
      { key: "running" },
    ]);
    expect(Object.values(await housekeeping.runOnce(now))).toEqual([0, 0, 0, 0, 5]);
  });
});
