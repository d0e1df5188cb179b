import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../shared/messages";
import { RateLimitCounters } from "./rate-limit-store";
import { buildAppOn, createTestApp, DATABASE_KINDS, type TestApp } from "./test/harness";

const LIMIT = 3;

describe.each(DATABASE_KINDS)("rate limits kept in the database (%s)", (kind) => {
  let t: TestApp;
  /** A second app instance on the same database, as behind a load balancer. */
  let other: TestApp["app"];

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: {
        RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT),
        RATE_LIMIT_AUTH_PER_ACCOUNT_PER_HOUR: String(LIMIT),
      },
    });
    other = await buildAppOn({ config: t.config, database: t.database, storage: t.storage });
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    await t.cleanup();
  });

  const login = (app: TestApp["app"], username: string, ip = "203.0.113.7") =>
    app.inject({
      method: "POST",
      url: "/api/login",
      remoteAddress: ip,
      payload: { username, password: "wrong password" },
    });

  it("counts one client's requests across instances: the limit holds for the whole cluster", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      // Alternate instances, and usernames, so only the per-IP budget is shared.
      const res = await login(i % 2 === 0 ? t.app : other, `nobody${i}`);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await login(other, "nobody-else");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: "too_many_requests",
      message: MESSAGES.tooManyRequests,
    });
  });

  it("keeps routes and clients apart", async () => {
    // The same address is still welcome on another route, and another address on this one.
    const register = await t.app.inject({
      method: "POST",
      url: "/api/register",
      remoteAddress: "203.0.113.7",
      payload: { username: `fresh${kind}`, password: "secret1", isPublic: true },
    });
    expect(register.statusCode).toBe(201);
    expect((await login(other, "nobody", "198.51.100.2")).statusCode).toBe(401);
  });

  it("limits attempts on one account from many addresses, across instances", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await login(i % 2 === 0 ? t.app : other, "grandma", `192.0.2.${i + 10}`);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  describe("the counters", () => {
    let clock = 1_800_000_000_000;
    let counters: RateLimitCounters;
    beforeAll(() => {
      counters = new RateLimitCounters(t.database.db, () => clock);
    });

    it("count within a window and start again when it has passed", async () => {
      expect(await counters.hit("k1", 1000)).toEqual({ current: 1, ttl: 1000 });
      clock += 400;
      expect(await counters.hit("k1", 1000)).toEqual({ current: 2, ttl: 600 });
      expect(await counters.read("k1")).toEqual({ current: 2, ttl: 600 });
      clock += 600;
      expect(await counters.read("k1")).toEqual({ current: 0, ttl: 0 });
      expect(await counters.hit("k1", 1000)).toEqual({ current: 1, ttl: 1000 });
    });

    it("count every one of many simultaneous requests exactly once", async () => {
      const results = await Promise.all(
        Array.from({ length: 25 }, () => counters.hit("busy", 60_000)),
      );
      expect(results.map((r) => r.current).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    });

    it("are deleted by housekeeping once their window has ended, and only then", async () => {
      const db = t.database.db;
      // Written directly: counting would start its own best-effort sweep in the background.
      await db
        .insertInto("rate_limits")
        .values([
          { key: "sweep:ended", count: 3, expires_at: 1_000 },
          { key: "sweep:ends-now", count: 1, expires_at: 2_000 },
          { key: "sweep:running", count: 1, expires_at: 2_001 },
        ])
        .execute();
      const sweeper = new RateLimitCounters(db);
      expect(await sweeper.deleteExpired(new Date(2_000))).toBe(2);
      const left = await db
        .selectFrom("rate_limits")
        .select("key")
        .where("key", "like", "sweep:%")
        .execute();
      expect(left).toEqual([{ key: "sweep:running" }]);
      // Running it again, or on a second instance at the same moment, is harmless.
      expect(await sweeper.deleteExpired(new Date(2_000))).toBe(0);
    });

    it("store a very long key (what a client sent) by its hash", async () => {
      const long = `account:login:${"x".repeat(5000)}`;
      expect((await counters.hit(long, 60_000)).current).toBe(1);
      expect((await counters.hit(long, 60_000)).current).toBe(2);
      expect((await counters.hit(`${long}y`, 60_000)).current).toBe(1);
    });
  });
});
