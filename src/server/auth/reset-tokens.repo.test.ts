import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, newSecretToken } from "../ids";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { ResetTokensRepo } from "./reset-tokens.repo";

describe.each(DATABASE_KINDS)("reset tokens on %s", (kind) => {
  let t: TestDatabase;
  const config = { SESSION_IDLE_DAYS: 30, SESSION_MAX_DAYS: 90 } as never;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t.cleanup());

  const row = (userId: string, expiresInMs = 3_600_000) => ({
    token_hash: hashToken(newSecretToken()),
    user_id: userId,
    created_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + expiresInMs).toISOString(),
  });

  it("keeps only the newest token of a user", async () => {
    const repo = new ResetTokensRepo(t.handle.db);
    const { user } = await createUserWithSession({ database: t.handle, config });
    const other = await createUserWithSession({ database: t.handle, config });
    const a = row(user.id);
    const b = row(user.id);
    const c = row(other.user.id);
    await repo.replaceForUser(a);
    await repo.replaceForUser(c);
    await repo.replaceForUser(b);
    expect(await repo.countForUser(user.id)).toBe(1);
    expect(await repo.take(a.token_hash)).toBeUndefined();
    expect(await repo.take(c.token_hash)).toMatchObject({ user_id: other.user.id });
    expect(await repo.take(b.token_hash)).toEqual(b);
  });

  it("gives a token out once, even to concurrent takers", async () => {
    const repo = new ResetTokensRepo(t.handle.db);
    const { user } = await createUserWithSession({ database: t.handle, config });
    const r = row(user.id);
    await repo.replaceForUser(r);
    const taken = await Promise.all([repo.take(r.token_hash), repo.take(r.token_hash)]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect(await repo.take(r.token_hash)).toBeUndefined();
  });

  it("deletes expired tokens", async () => {
    const repo = new ResetTokensRepo(t.handle.db);
    const { user } = await createUserWithSession({ database: t.handle, config });
    await repo.replaceForUser(row(user.id, -1000));
    await repo.sweepExpired(new Date());
    expect(await repo.countForUser(user.id)).toBe(0);
  });

  it("housekeeping deletes expired tokens, counts them, and keeps live ones", async () => {
    const repo = new ResetTokensRepo(t.handle.db);
    const expired = await createUserWithSession({ database: t.handle, config });
    const live = await createUserWithSession({ database: t.handle, config });
    await repo.replaceForUser(row(expired.user.id, -1000));
    await repo.replaceForUser(row(live.user.id, 60_000));
    const now = new Date();
    expect(await repo.sweepExpired(now)).toBe(1);
    expect(await repo.countForUser(expired.user.id)).toBe(0);
    expect(await repo.countForUser(live.user.id)).toBe(1);
    // Concurrent sweeps (two instances) delete each row once and never fail.
    expect(await Promise.all([repo.sweepExpired(now), repo.sweepExpired(now)])).toEqual([0, 0]);
  });
});
