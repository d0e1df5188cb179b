import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, newSecretToken } from "../ids";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { SessionsRepo } from "./sessions.repo";

const DAY_MS = 86_400_000;

describe.each(DATABASE_KINDS)("sessions housekeeping on %s", (kind) => {
  let t: TestDatabase;
  const config = { SESSION_IDLE_DAYS: 30, SESSION_MAX_DAYS: 90 } as never;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t.cleanup());

  it("deletes sessions past their expiry or idle too long, counts them, keeps live ones", async () => {
    const repo = new SessionsRepo(t.handle.db);
    const { user } = await createUserWithSession({ database: t.handle, config });
    // Now, so the session the helper started for the user stays live too.
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const session = (lastSeenDaysAgo: number, expiresInDays: number) => ({
      id_hash: hashToken(newSecretToken()),
      user_id: user.id,
      created_at: ago(60),
      last_seen_at: ago(lastSeenDaysAgo),
      expires_at: ago(-expiresInDays),
    });
    const live = session(1, 30);
    const expired = session(1, 0);
    const idle = session(30, 30);
    for (const row of [live, expired, idle]) await repo.create(row);

    const idleSince = new Date(now.getTime() - 30 * DAY_MS);
    expect(await repo.deleteExpired(now, idleSince)).toBe(2);
    expect(await repo.find(live.id_hash)).toEqual(live);
    expect(await repo.find(expired.id_hash)).toBeUndefined();
    expect(await repo.find(idle.id_hash)).toBeUndefined();
    // Two instances sweeping at the same moment: harmless.
    expect(
      await Promise.all([repo.deleteExpired(now, idleSince), repo.deleteExpired(now, idleSince)]),
    ).toEqual([0, 0]);
  });
});
