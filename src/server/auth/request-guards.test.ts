import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../shared/messages";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, type TestApp } from "../test/harness";

describe("per-IP rate limits on the auth routes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: "3" } });
  });
  afterAll(async () => t.cleanup());

  const post = (url: string, payload: object, ip = "10.0.0.1") =>
    t.app.inject({ method: "POST", url, payload, remoteAddress: ip });

  it.each([
    ["/api/login", (n: string) => ({ username: `nobody${n}`, password: "secret1" })],
    ["/api/register", (_n: string) => ({ username: "x", password: "1" })],
    ["/api/forgot-password", (n: string) => ({ email: `a${n}@example.com` })],
    ["/api/reset-password", (_n: string) => ({ token: "abc", password: "secret1" })],
  ])("%s answers 429 with a clear message after the limit", async (url, makeBody) => {
    const body = makeBody("1");
    const ip = `10.1.0.${Math.floor(Math.random() * 250) + 1}`;
    for (let i = 0; i < 3; i++) {
      expect((await post(url, body, ip)).statusCode).not.toBe(429);
    }
    const limited = await post(url, body, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "too_many_requests",
      message: MESSAGES.tooManyRequests,
    });
    expect(limited.headers["retry-after"]).toBeDefined();
    // Another client is not affected.
    expect((await post(url, makeBody("2"), "10.2.0.1")).statusCode).not.toBe(429);
  });
});

describe("login and reset limits per account and address, without a lockout switch", () => {
  const PER_MINUTE = 3;
  const PER_ACCOUNT_PER_HOUR = 8;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMIT_AUTH_PER_MINUTE: String(PER_MINUTE),
        RATE_LIMIT_AUTH_PER_ACCOUNT_PER_HOUR: String(PER_ACCOUNT_PER_HOUR),
      },
    });
  });
  afterAll(async () => t.cleanup());

  let subnet = 0;
  /** A fresh block of addresses for each test, so per-IP counters never carry over. */
  const addresses = () => {
    subnet++;
    return (n: number) => `10.${10 + subnet}.0.${n}`;
  };
  const post = (url: string, payload: object, ip: string) =>
    t.app.inject({ method: "POST", url, payload, remoteAddress: ip });

  it("lets the owner log in from another address while an attacker is limited on theirs", async () => {
    const ip = addresses();
    const me = await createUserWithSession(t, { username: "OwnerOfTheJournal" });
    const attacker = ip(1);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const guess = { username: "ownerofthejournal", password: `guess-${i}` };
      statuses.push((await post("/api/login", guess, attacker)).statusCode);
    }
    expect(statuses.slice(0, PER_MINUTE)).toEqual([401, 401, 401]);
    expect(new Set(statuses.slice(PER_MINUTE))).toEqual(new Set([429]));
    // Even the right password is refused from the attacker's address...
    const right = { username: me.user.username, password: me.password };
    expect((await post("/api/login", right, attacker)).statusCode).toBe(429);
    // ...but the owner, elsewhere, gets in.
    const owner = await post("/api/login", right, ip(2));
    expect(owner.statusCode).toBe(200);
    expect(owner.json().username).toBe("OwnerOfTheJournal");
  });

  it("bounds attempts on one account from many addresses per hour, in any letter case", async () => {
    const ip = addresses();
    const me = await createUserWithSession(t, { username: "TargetedUser" });
    for (let i = 0; i < PER_ACCOUNT_PER_HOUR; i++) {
      const username = i % 2 ? "targeteduser" : "TARGETEDUSER";
      const res = await post("/api/login", { username, password: `guess-${i}` }, ip(i + 1));
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const limited = await post(
      "/api/login",
      { username: me.user.username, password: me.password },
      ip(99),
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "too_many_requests",
      message: MESSAGES.tooManyRequests,
    });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(60);
    // Other accounts, from that address, are not affected.
    expect(
      (await post("/api/login", { username: "someone-else", password: "x" }, ip(99))).statusCode,
    ).toBe(401);
  });

  it("limits reset requests per email and address, and per email per hour", async () => {
    const ip = addresses();
    const email = { email: "Family@Example.com" };
    for (let i = 0; i < PER_MINUTE; i++) {
      expect((await post("/api/forgot-password", email, ip(1))).statusCode).toBe(200);
    }
    expect((await post("/api/forgot-password", email, ip(1))).statusCode).toBe(429);
    // Another address may still ask for this email...
    let n = 2;
    for (let sent = PER_MINUTE; sent < PER_ACCOUNT_PER_HOUR; sent++) {
      const res = await post("/api/forgot-password", { email: "family@example.com" }, ip(n++));
      expect(res.statusCode, `request ${sent + 1}`).toBe(200);
    }
    // ...until the email's hourly ceiling, counted across every address.
    const limited = await post("/api/forgot-password", email, ip(n++));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "too_many_requests",
      message: MESSAGES.tooManyRequests,
    });
    expect(
      (await post("/api/forgot-password", { email: "other@example.com" }, ip(n))).statusCode,
    ).toBe(200);
  });
});

describe("cross-site request refusal", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: "https://journal.example" } });
  });
  afterAll(async () => t.cleanup());

  it.each([
    [{ origin: "https://evil.example" }],
    [{ origin: "null" }],
    [{ origin: "http://localhost:80.evil.example" }],
    [{ "sec-fetch-site": "cross-site" }],
    [{ "sec-fetch-site": "cross-site", origin: "http://localhost:80" }],
  ])("refuses a state-changing API request with %j", async (headers) => {
    const me = await createUserWithSession(t);
    for (const url of ["/api/logout", "/api/user/visibility", "/api/login"]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { ...headers, host: "localhost:80", cookie: me.cookie },
        payload: { isPublic: false, username: me.user.username, password: me.password },
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({
        code: "cross_site_refused",
        message: ERROR_MESSAGES.cross_site_refused,
      });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
    // Nothing changed: still logged in, still public.
    const user = await t.app.inject({
      method: "GET",
      url: "/api/user",
      headers: { cookie: me.cookie },
    });
    expect(user.json()).toMatchObject({ isPublic: true });
  });

  it.each([
    [{ origin: "http://localhost:80" }],
    [{ origin: "https://journal.example" }],
    [{ "sec-fetch-site": "same-origin", origin: "http://localhost:80" }],
    [{ "sec-fetch-site": "none" }],
    [{}],
  ])("lets a same-origin or non-browser request through: %j", async (headers) => {
    const me = await createUserWithSession(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/user/visibility",
      headers: { ...headers, host: "localhost:80", cookie: me.cookie },
      payload: { isPublic: false },
    });
    expect(res.statusCode).toBe(200);
  });

  it("lets cross-site reads through but sends no CORS grant", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
  });
});

describe("the session cookie's Secure flag", () => {
  it.each([
    [{ COOKIE_SECURE: "true" }, {}, true],
    [{ COOKIE_SECURE: "false" }, { "x-forwarded-proto": "https" }, false],
    [{ COOKIE_SECURE: "auto" }, {}, false],
    [{ COOKIE_SECURE: "auto", TRUST_PROXY: "true" }, { "x-forwarded-proto": "https" }, true],
  ])("with %j and headers %j is %s", async (env, headers, secure) => {
    const t = await createTestApp({ env });
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/register",
        headers,
        payload: { username: "secure-test", password: "secret1" },
      });
      expect(res.statusCode).toBe(201);
      expect(Boolean(res.cookies.find((c) => c.name === "vmj_session")?.secure)).toBe(secure);
    } finally {
      await t.cleanup();
    }
  });
});
