import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ResetTokensRepo } from "../auth/reset-tokens.repo";
import { SessionsRepo } from "../auth/sessions.repo";
import { ConfigError, loadConfig } from "../config";
import { hashToken, newSecretToken } from "../ids";
import { JobsRepo } from "../jobs/jobs.repo";
import { RateLimitCounters } from "../rate-limit-store";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { createHousekeeping, Housekeeping, type SweepTask } from "./housekeeping";

const DAY_MS = 86_400_000;

/** The repositories housekeeping sweeps through, as compose.ts builds them. */
function reposOf(testDb: TestDatabase) {
  const { db, kind } = testDb.handle;
  return {
    sessions: new SessionsRepo(db),
    resetTokens: new ResetTokensRepo(db),
    jobs: new JobsRepo(db, kind),
    counters: new RateLimitCounters(db),
  };
}

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
        createHousekeeping({ ...reposOf(testDb), config, logger: recordingLogger() }),
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
      ...reposOf(testDb),
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
