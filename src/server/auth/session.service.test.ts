import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../ids";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { SessionService } from "./session.service";
import { SessionsRepo } from "./sessions.repo";

describe.each(DATABASE_KINDS)("sessions on %s", (kind) => {
  let t: TestDatabase;
  const config = { SESSION_IDLE_DAYS: 30, SESSION_MAX_DAYS: 90, COOKIE_SECURE: "auto" as const };
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => t.cleanup());

  it("resolves a live session and stores only the token's hash", async () => {
    const { user, cookie } = await createUserWithSession({
      database: t.handle,
      config: config as never,
    });
    const token = cookie.split("=")[1] ?? "";
    const service = new SessionService(new SessionsRepo(t.handle.db), config);
    expect(await service.resolve(token)).toBe(user.id);
    const rows = await t.handle.db.selectFrom("sessions").select("id_hash").execute();
    expect(rows.map((r) => r.id_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.id_hash)).not.toContain(token);
  });

  it("still resolves a session stored under the token's SHA-256 (base64url), as every release stored it", async () => {
    const { user } = await createUserWithSession({ database: t.handle, config: config as never });
    // The digest comes from `openssl dgst -sha256 -binary | base64`, not from our code, so a change
    // of hashing would log out every browser and fail here.
    const token = "AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK";
    const now = new Date().toISOString();
    await new SessionsRepo(t.handle.db).create({
      id_hash: "Nmnha3ZSkN5yoDNlQGd01vQ_Cpxy-IgIw2oP_jV55vo",
      user_id: user.id,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const service = new SessionService(new SessionsRepo(t.handle.db), config);
    expect(await service.resolve(token)).toBe(user.id);
    expect(await service.resolve(`${token.slice(0, -1)}L`)).toBeNull();
  });

  it("treats tampered, unknown and expired tokens as logged out", async () => {
    const repo = new SessionsRepo(t.handle.db);
    const service = new SessionService(repo, config);
    const { user } = await createUserWithSession({ database: t.handle, config: config as never });
    expect(await service.resolve(undefined)).toBeNull();
    expect(await service.resolve("short")).toBeNull();
    expect(await service.resolve("x".repeat(43))).toBeNull();
    const expired = await service.start(user.id);
    await t.handle.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id_hash", "=", hashToken(expired.token))
      .execute();
    expect(await service.resolve(expired.token)).toBeNull();
    expect(await repo.find(hashToken(expired.token))).toBeUndefined();
    const idle = await service.start(user.id);
    await t.handle.db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where("id_hash", "=", hashToken(idle.token))
      .execute();
    expect(await service.resolve(idle.token)).toBeNull();
  });

  it("ends one session or all of a user's", async () => {
    const service = new SessionService(new SessionsRepo(t.handle.db), config);
    const { user } = await createUserWithSession({ database: t.handle, config: config as never });
    const a = await service.start(user.id);
    const b = await service.start(user.id);
    await service.end(a.token);
    expect(await service.resolve(a.token)).toBeNull();
    expect(await service.resolve(b.token)).toBe(user.id);
    await service.endAllForUser(user.id);
    expect(await service.resolve(b.token)).toBeNull();
  });
});
