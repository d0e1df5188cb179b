import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PASSWORD_LENGTH, USERNAME_MAX_LENGTH } from "../../shared/constants";
import { formatMessage } from "../../shared/i18n/format";
import { MESSAGES } from "../../shared/messages";
import { wordsIn } from "../i18n/words";
import { hashToken } from "../ids";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { mailSubject, resetTokenFrom, type SmtpSink, startSmtpSink } from "../test/smtp-sink";
import { RESET_TOKEN_TTL_MS } from "./auth.service";
import { SESSION_COOKIE } from "./session.service";

type Inject = TestApp["app"]["inject"];
type Res = Awaited<ReturnType<Inject>>;

/** The `name=value` of the session cookie a response sets. */
function sessionCookie(res: Res): string {
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie?.value) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `${SESSION_COOKIE}=${cookie.value}`;
}

let counter = 0;
const uniqueName = (prefix = "user") => `${prefix}${Date.now().toString(36)}${counter++}`;

describe.each(DATABASE_KINDS)("accounts API on %s", (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;

  const post = (url: string, payload?: unknown, cookie?: string) =>
    t.app.inject({
      method: "POST",
      url,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      headers: cookie ? { cookie } : {},
    });
  const getUser = (cookie?: string) =>
    t.app.inject({ method: "GET", url: "/api/user", headers: cookie ? { cookie } : {} });
  const register = (body: Record<string, unknown> = {}) =>
    post("/api/register", {
      username: uniqueName(),
      password: "secret1",
      email: `${uniqueName("mail")}@example.com`,
      isPublic: true,
      ...body,
    });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestApp({
      kind,
      env: {
        RATE_LIMIT_AUTH_PER_MINUTE: "10000",
        SMTP_URL: smtp.url,
        APP_URL: "https://journal.example",
      },
    });
  });
  afterAll(async () => {
    await t.cleanup();
    await smtp.close();
  });

  describe("GET /api/user", () => {
    it("answers 401 when logged out", async () => {
      const res = await getUser();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: "not_logged_in", message: MESSAGES.notLoggedIn });
    });

    it("treats a tampered or unknown cookie as logged out", async () => {
      for (const value of ["x", "a".repeat(43), "%%%", "a".repeat(5000)]) {
        const res = await getUser(`${SESSION_COOKIE}=${value}`);
        expect(res.statusCode, value.slice(0, 10)).toBe(401);
      }
    });
  });

  describe("POST /api/register", () => {
    it("creates the account, logs it in with a safe cookie and hides the hash", async () => {
      const username = uniqueName("Reg");
      const res = await register({
        username,
        displayName: "Grandma Jo",
        isPublic: false,
        language: "es",
      });
      expect(res.statusCode).toBe(201);
      const user = res.json();
      expect(user).toEqual({
        id: expect.any(String),
        username,
        displayName: "Grandma Jo",
        isPublic: false,
        email: expect.stringMatching(/@example\.com$/),
        // The language the browser showed while signing up is the account's.
        language: "es",
      });
      expect(res.body).not.toContain("argon2");
      const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe("Lax");
      expect(cookie?.path).toBe("/");
      expect(cookie?.value.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
      const me = await getUser(sessionCookie(res));
      expect(me.json()).toEqual(user);
    });

    it("stores the password with argon2id and only a hash of the session token", async () => {
      const username = uniqueName();
      const res = await register({ username });
      const row = await t.database.db
        .selectFrom("users")
        .select("password_hash")
        .where("username", "=", username)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      const token = sessionCookie(res).split("=")[1] ?? "";
      const sessions = await t.database.db.selectFrom("sessions").select("id_hash").execute();
      expect(sessions.map((s) => s.id_hash)).toContain(hashToken(token));
      expect(sessions.map((s) => s.id_hash)).not.toContain(token);
    });

    it("accepts a missing email (save-account dialog) and starts private unless public is chosen", async () => {
      const res = await post("/api/register", { username: uniqueName(), password: "secret1" });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ email: null, isPublic: false, displayName: null });
      const chosen = await post("/api/register", {
        username: uniqueName(),
        password: "secret1",
        email: "",
        isPublic: true,
      });
      expect(chosen.statusCode).toBe(201);
      expect(chosen.json()).toMatchObject({ email: null, isPublic: true });
    });

    it("refuses a username taken in any letter case with 409, changing nothing", async () => {
      const username = uniqueName("Taken");
      expect((await register({ username })).statusCode).toBe(201);
      const res = await register({ username: username.toUpperCase() });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: "auth.username_taken", message: MESSAGES.usernameTaken });
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      const rows = await t.database.db
        .selectFrom("users")
        .select("id")
        .where("username_lower", "=", username.toLowerCase())
        .execute();
      expect(rows).toHaveLength(1);
    });

    it.each([
      ["missing username", { password: "secret1" }, /^body\.username$/],
      ["missing password", { username: "someone" }, /^body\.password$/],
      ["short password", { username: "someone", password: "12345" }, /^body\.password$/],
      [
        "too long password",
        { username: "someone", password: "x".repeat(MAX_PASSWORD_LENGTH + 1) },
        /^body\.password$/,
      ],
      ["short username", { username: "ab", password: "secret1" }, /^body\.username$/],
      [
        "too long username",
        { username: "a".repeat(USERNAME_MAX_LENGTH + 1), password: "secret1" },
        /^body\.username$/,
      ],
      ["username with spaces", { username: "a b c", password: "secret1" }, /^body\.username$/],
      ["wrong type username", { username: 42, password: "secret1" }, /^body\.username$/],
      [
        "wrong type isPublic",
        { username: "someone", password: "secret1", isPublic: "yes" },
        /^body\.isPublic$/,
      ],
      [
        "malformed email",
        { username: "someone", password: "secret1", email: "nope" },
        /^body\.email$/,
      ],
      [
        "too long email",
        { username: "someone", password: "secret1", email: `${"a".repeat(250)}@example.com` },
        /^body\.email$/,
      ],
    ])("answers 400 for %s and creates nothing", async (_name, body, pattern) => {
      const before = await t.database.db.selectFrom("users").select("id").execute();
      const res = await post("/api/register", body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: "invalid_value",
        field: expect.stringMatching(pattern),
      });
      const after = await t.database.db.selectFrom("users").select("id").execute();
      expect(after.length).toBe(before.length);
    });

    it("answers 400 for malformed JSON", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/register",
        headers: { "content-type": "application/json" },
        payload: '{"username": "x",',
      });
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().message).toBe("string");
    });

    it("starts a new session and ends the one the browser held before", async () => {
      const first = await register();
      const firstCookie = sessionCookie(first);
      const second = await post(
        "/api/register",
        { username: uniqueName(), password: "secret1" },
        firstCookie,
      );
      expect(second.statusCode).toBe(201);
      expect(sessionCookie(second)).not.toBe(firstCookie);
      expect((await getUser(firstCookie)).statusCode).toBe(401);
      expect((await getUser(sessionCookie(second))).json().id).toBe(second.json().id);
    });
  });

  describe("POST /api/login", () => {
    it("logs in case-insensitively with a new session each time", async () => {
      const username = uniqueName("Login");
      await register({ username, password: "open sesame" });
      const a = await post("/api/login", {
        username: username.toLowerCase(),
        password: "open sesame",
      });
      expect(a.statusCode).toBe(200);
      expect(a.json().username).toBe(username);
      const b = await post("/api/login", { username, password: "open sesame" });
      expect(sessionCookie(a)).not.toBe(sessionCookie(b));
      expect((await getUser(sessionCookie(a))).statusCode).toBe(200);
      expect((await getUser(sessionCookie(b))).statusCode).toBe(200);
    });

    it("gives one message for an unknown user and a wrong password", async () => {
      const username = uniqueName();
      await register({ username, password: "right-password" });
      const wrong = await post("/api/login", { username, password: "wrong-password" });
      const unknown = await post("/api/login", { username: uniqueName("ghost"), password: "x" });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({
        code: "auth.invalid_credentials",
        message: MESSAGES.invalidCredentials,
      });
      expect(unknown.json()).toEqual(wrong.json());
      expect(wrong.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    });

    it("never truncates a long password", async () => {
      const username = uniqueName();
      const long = `${"p".repeat(100)}-the-end-${"q".repeat(800)}`;
      expect((await register({ username, password: long })).statusCode).toBe(201);
      expect((await post("/api/login", { username, password: long })).statusCode).toBe(200);
      for (const prefix of [long.slice(0, 72), long.slice(0, 128), long.slice(0, -1)]) {
        const res = await post("/api/login", { username, password: prefix });
        expect(res.statusCode, `prefix of ${prefix.length}`).toBe(401);
      }
    });

    it.each([
      ["missing username", { password: "secret1" }, /^body\.username$/],
      ["missing password", { username: "someone" }, /^body\.password$/],
      ["empty password", { username: "someone", password: "" }, /^body\.password$/],
      ["wrong type", { username: ["a"], password: "secret1" }, /^body\.username$/],
      ["too long username", { username: "a".repeat(200), password: "secret1" }, /^body\.username$/],
      [
        "too long password",
        { username: "someone", password: "x".repeat(MAX_PASSWORD_LENGTH + 1) },
        /^body\.password$/,
      ],
    ])("answers 400 for %s", async (_name, body, pattern) => {
      const res = await post("/api/login", body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: "invalid_value",
        field: expect.stringMatching(pattern),
      });
    });

    it("answers 400 for malformed JSON and for no body", async () => {
      const bad = await t.app.inject({
        method: "POST",
        url: "/api/login",
        headers: { "content-type": "application/json" },
        payload: "{{",
      });
      expect(bad.statusCode).toBe(400);
      const none = await post("/api/login");
      expect(none.statusCode).toBe(400);
    });
  });

  describe("POST /api/logout", () => {
    it("deletes the session on the server, so a kept cookie no longer works", async () => {
      const cookie = sessionCookie(await register());
      const res = await post("/api/logout", undefined, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const cleared = res.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cleared?.value).toBe("");
      expect((await getUser(cookie)).statusCode).toBe(401);
      const token = cookie.split("=")[1] ?? "";
      const left = await t.database.db
        .selectFrom("sessions")
        .select("id_hash")
        .where("id_hash", "=", hashToken(token))
        .execute();
      expect(left).toEqual([]);
    });

    it("is harmless when logged out", async () => {
      expect((await post("/api/logout")).statusCode).toBe(200);
    });
  });

  describe("password reset", () => {
    async function requestReset(email: string) {
      const res = await post("/api/forgot-password", { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      return smtp.waitFor((m) => m.to.includes(email.toLowerCase()) && !seen.has(m));
    }
    const seen = new Set<unknown>();
    async function nextResetMail(email: string) {
      const mail = await requestReset(email);
      seen.add(mail);
      return mail;
    }

    it("mails a link on APP_URL that resets the password and ends every session", async () => {
      const username = uniqueName();
      const email = `${uniqueName("reset")}@example.com`;
      const reg = await register({ username, email, password: "old-password" });
      const other = sessionCookie(await post("/api/login", { username, password: "old-password" }));
      const mail = await nextResetMail(email);
      expect(mail.raw).toMatch(/^Subject: Reset your Voice Memory Journal password/m);
      expect(mail.text).toContain(`https://journal.example/reset-password?token=`);
      const token = resetTokenFrom(mail);
      expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);

      const stored = await t.database.db.selectFrom("password_reset_tokens").selectAll().execute();
      expect(stored.map((r) => r.token_hash)).toContain(hashToken(token));
      expect(stored.map((r) => r.token_hash)).not.toContain(token);

      const res = await post("/api/reset-password", { token, password: "new-password" });
      expect(res.statusCode).toBe(200);
      expect((await getUser(sessionCookie(reg))).statusCode).toBe(401);
      expect((await getUser(other)).statusCode).toBe(401);
      expect((await post("/api/login", { username, password: "old-password" })).statusCode).toBe(
        401,
      );
      expect((await post("/api/login", { username, password: "new-password" })).statusCode).toBe(
        200,
      );
    });

    it("writes the mail in the account's language, and in English when it has none", async () => {
      const spanish = `${uniqueName("es")}@example.com`;
      const english = `${uniqueName("en")}@example.com`;
      const username = uniqueName();
      await register({ username, email: spanish, displayName: "Rosa", language: "es" });
      await register({ username: uniqueName(), email: english, displayName: "Rose" });
      await t.database.db
        .updateTable("users")
        .set({ language: null })
        .where("email_lower", "=", english)
        .execute();

      const words = wordsIn("es").RESET_MAIL;
      const es = await nextResetMail(spanish);
      expect(mailSubject(es)).toBe(words.subject);
      const lines = es.text.split(/\r?\n/);
      expect(lines[0]).toBe(formatMessage(words.greeting, { name: "Rosa" }, "es"));
      expect(lines).toContain(formatMessage(words.asked, { username }, "es"));
      expect(lines).toContain(words.action);
      expect(lines).toContain(words.ignore);

      const en = await nextResetMail(english);
      expect(mailSubject(en)).toBe("Reset your Voice Memory Journal password");
      expect(en.text.split(/\r?\n/)[0]).toBe("Hello Rose,");
      expect(en.text).toContain(
        "If it was not you, ignore this mail: your password stays as it is.",
      );
    });

    it("refuses a replayed token", async () => {
      const email = `${uniqueName("replay")}@example.com`;
      const username = uniqueName();
      await register({ username, email });
      const token = resetTokenFrom(await nextResetMail(email));
      expect((await post("/api/reset-password", { token, password: "first-new" })).statusCode).toBe(
        200,
      );
      const replay = await post("/api/reset-password", { token, password: "second-new" });
      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({
        code: "auth.invalid_reset_token",
        message: MESSAGES.invalidResetToken,
      });
      expect((await post("/api/login", { username, password: "first-new" })).statusCode).toBe(200);
    });

    it("lets only one of two simultaneous uses of a token succeed", async () => {
      const email = `${uniqueName("race")}@example.com`;
      await register({ email });
      const token = resetTokenFrom(await nextResetMail(email));
      const results = await Promise.all([
        post("/api/reset-password", { token, password: "racer-one" }),
        post("/api/reset-password", { token, password: "racer-two" }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    });

    it("refuses an expired token (and it stays unusable)", async () => {
      const email = `${uniqueName("expired")}@example.com`;
      const username = uniqueName();
      const reg = await register({ username, email });
      const token = resetTokenFrom(await nextResetMail(email));
      await t.database.db
        .updateTable("password_reset_tokens")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("token_hash", "=", hashToken(token))
        .execute();
      const res = await post("/api/reset-password", { token, password: "too-late" });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: "auth.invalid_reset_token",
        message: MESSAGES.invalidResetToken,
      });
      expect((await getUser(sessionCookie(reg))).statusCode).toBe(200);
      expect((await post("/api/login", { username, password: "too-late" })).statusCode).toBe(401);
    });

    it("sets tokens to expire after one hour", async () => {
      const email = `${uniqueName("hour")}@example.com`;
      const { id } = (await register({ email })).json();
      const before = Date.now();
      await nextResetMail(email);
      const row = await t.database.db
        .selectFrom("password_reset_tokens")
        .selectAll()
        .where("user_id", "=", id)
        .executeTakeFirstOrThrow();
      const ttl = Date.parse(row.expires_at) - before;
      expect(ttl).toBeGreaterThan(RESET_TOKEN_TTL_MS - 5000);
      expect(ttl).toBeLessThanOrEqual(RESET_TOKEN_TTL_MS + 1000);
      expect(RESET_TOKEN_TTL_MS).toBe(60 * 60 * 1000);
    });

    it("invalidates an older token when a new one is requested", async () => {
      const email = `${uniqueName("twice")}@example.com`;
      await register({ email });
      const older = resetTokenFrom(await nextResetMail(email));
      const newer = resetTokenFrom(await nextResetMail(email));
      expect(newer).not.toBe(older);
      const res = await post("/api/reset-password", { token: older, password: "from-older" });
      expect(res.statusCode).toBe(400);
      expect(
        (await post("/api/reset-password", { token: newer, password: "from-newer" })).statusCode,
      ).toBe(200);
    });

    it("answers an unknown email exactly like a known one and sends nothing", async () => {
      const known = `${uniqueName("known")}@example.com`;
      await register({ email: known });
      const a = await post("/api/forgot-password", { email: known });
      const unknownEmail = `${uniqueName("nobody")}@example.com`;
      const b = await post("/api/forgot-password", { email: unknownEmail });
      expect(a.statusCode).toBe(b.statusCode);
      expect(a.body).toBe(b.body);
      await smtp.waitFor((m) => m.to.includes(known.toLowerCase()));
      expect(smtp.messages.some((m) => m.to.includes(unknownEmail.toLowerCase()))).toBe(false);
    });

    it("requires a password of at least 6 characters to reset", async () => {
      const email = `${uniqueName("short")}@example.com`;
      await register({ email });
      const token = resetTokenFrom(await nextResetMail(email));
      const res = await post("/api/reset-password", { token, password: "12345" });
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toMatch(/^body\.password/);
      // The token was not spent by the refused attempt.
      expect((await post("/api/reset-password", { token, password: "123456" })).statusCode).toBe(
        200,
      );
    });

    it("refuses a made-up token", async () => {
      const res = await post("/api/reset-password", { token: "a".repeat(43), password: "secret1" });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: "auth.invalid_reset_token",
        message: MESSAGES.invalidResetToken,
      });
    });

    it.each([
      ["/api/forgot-password", {}, /^body\.email$/],
      ["/api/forgot-password", { email: "not-an-email" }, /^body\.email$/],
      ["/api/forgot-password", { email: 7 }, /^body\.email$/],
      ["/api/forgot-password", { email: `${"a".repeat(300)}@example.com` }, /^body\.email$/],
      ["/api/reset-password", { password: "secret1" }, /^body\.token$/],
      ["/api/reset-password", { token: "abc" }, /^body\.password$/],
      ["/api/reset-password", { token: 5, password: "secret1" }, /^body\.token$/],
      ["/api/reset-password", { token: "a".repeat(201), password: "secret1" }, /^body\.token$/],
      [
        "/api/reset-password",
        { token: "abc", password: "x".repeat(MAX_PASSWORD_LENGTH + 1) },
        /^body\.password$/,
      ],
    ])("%s answers 400 for %j", async (url, body, pattern) => {
      const res = await post(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: "invalid_value",
        field: expect.stringMatching(pattern),
      });
    });

    it("answers 400 for malformed JSON on both routes", async () => {
      for (const url of ["/api/forgot-password", "/api/reset-password"]) {
        const res = await t.app.inject({
          method: "POST",
          url,
          headers: { "content-type": "application/json" },
          payload: "[",
        });
        expect(res.statusCode, url).toBe(400);
      }
    });
  });
});

describe("reset links without APP_URL", () => {
  it.each(["false", "true"])(
    "never take the request's Host or X-Forwarded-Host (TRUST_PROXY=%s)",
    async (trustProxy) => {
      const smtp = await startSmtpSink();
      const t = await createTestApp({
        env: { SMTP_URL: smtp.url, PORT: "5123", TRUST_PROXY: trustProxy },
      });
      try {
        const email = `${uniqueName("forged")}@example.com`;
        const reg = await t.app.inject({
          method: "POST",
          url: "/api/register",
          payload: { username: uniqueName(), password: "secret1", email },
        });
        expect(reg.statusCode).toBe(201);
        const res = await t.app.inject({
          method: "POST",
          url: "/api/forgot-password",
          payload: { email },
          headers: {
            host: "attacker.example",
            "x-forwarded-host": "attacker.example",
            "x-forwarded-proto": "https",
          },
        });
        expect(res.statusCode).toBe(200);
        const mail = await smtp.waitFor((m) => m.to.includes(email));
        expect(mail.text).toContain("http://localhost:5123/reset-password?token=");
        expect(mail.raw).not.toContain("attacker");
      } finally {
        await t.cleanup();
        await smtp.close();
      }
    },
  );
});
