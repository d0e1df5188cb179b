import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, type TestApp } from "../test/harness";

describe("per-IP and per-account rate limits on the auth routes", () => {
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
    expect(limited.json()).toEqual({ message: MESSAGES.tooManyRequests });
    expect(limited.headers["retry-after"]).toBeDefined();
    // Another client is not affected.
    expect((await post(url, makeBody("2"), "10.2.0.1")).statusCode).not.toBe(429);
  });

  it("limits login attempts on one account across many IPs", async () => {
    const body = { username: "TargetedUser", password: "guess" };
    for (let i = 0; i < 3; i++) {
      expect((await post("/api/login", body, `10.3.0.${i + 1}`)).statusCode).toBe(401);
    }
    const limited = await post("/api/login", { ...body, username: "targeteduser" }, "10.3.0.99");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: MESSAGES.tooManyRequests });
    // Other accounts from that IP are fine.
    expect(
      (await post("/api/login", { username: "someone-else", password: "x" }, "10.3.0.99"))
        .statusCode,
    ).toBe(401);
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
      expect(res.json()).toEqual({ message: MESSAGES.crossSiteRefused });
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
