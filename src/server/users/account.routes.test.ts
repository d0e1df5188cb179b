import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISPLAY_NAME_MAX_LENGTH } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import type { Comment, Memory, MemoryPage, User } from "../../shared/schemas";
import { AudioRepo } from "../audio/audio.repo";
import { ResetTokensRepo } from "../auth/reset-tokens.repo";
import { SESSION_COOKIE } from "../auth/session.service";
import { CommentsRepo } from "../comments/comments.repo";
import { hashToken, newSecretToken } from "../ids";
import { ownJournalId } from "../journals/journals.repo";
import { MemoriesRepo } from "../memories/memories.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { fixture, upload } from "../test/upload-helpers";
import { UsersRepo } from "./users.repo";

type Res = Awaited<ReturnType<TestApp["app"]["inject"]>>;

function sessionCookie(res: Res): string {
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie?.value) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `${SESSION_COOKIE}=${cookie.value}`;
}

describe.each(DATABASE_KINDS)("the account API on %s", (kind) => {
  let t: TestApp;
  let users: UsersRepo;
  beforeAll(async () => {
    t = await createTestApp({ kind, env: { RATE_LIMIT_AUTH_PER_MINUTE: "10000" } });
    users = new UsersRepo(t.database.db);
  });
  afterAll(async () => t.cleanup());

  const send = (
    method: "PATCH" | "POST" | "DELETE",
    url: string,
    payload?: unknown,
    cookie?: string,
  ) =>
    t.app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      headers: cookie ? { cookie } : {},
    });
  const getUser = (cookie?: string) =>
    t.app.inject({ method: "GET", url: "/api/user", headers: cookie ? { cookie } : {} });
  const login = (username: string, password: string) =>
    send("POST", "/api/login", { username, password });
  /** Another logged-in session of the same user (another device). */
  const secondSession = async (me: TestUser) => {
    const res = await login(me.user.username, me.password);
    expect(res.statusCode).toBe(200);
    return sessionCookie(res);
  };

  describe("PATCH /api/user", () => {
    it("sets the display name (trimmed), shown on the profile and in GET /api/user", async () => {
      const me = await createUserWithSession(t, { username: "RoseAccount" });
      const res = await send("PATCH", "/api/user", { displayName: "  Grandma Rose " }, me.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json<User>()).toMatchObject({ displayName: "Grandma Rose", email: null });
      expect((await getUser(me.cookie)).json<User>().displayName).toBe("Grandma Rose");
      const profile = await t.app.inject({ method: "GET", url: "/api/users/roseaccount" });
      expect(profile.json()).toMatchObject({
        username: "RoseAccount",
        displayName: "Grandma Rose",
      });
      // Blank clears it (the username shows again); a field not sent stays as it is.
      await send(
        "PATCH",
        "/api/user",
        { email: "rose@example.com", currentPassword: me.password },
        me.cookie,
      );
      const cleared = await send("PATCH", "/api/user", { displayName: "   " }, me.cookie);
      expect(cleared.json<User>()).toMatchObject({ displayName: null, email: "rose@example.com" });
    });

    it("changes and removes the email; reset links then go to the new address only", async () => {
      const me = await createUserWithSession(t, { email: "old-address@example.com" });
      const res = await send(
        "PATCH",
        "/api/user",
        { email: " New.Address@Example.com ", currentPassword: me.password },
        me.cookie,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json<User>().email).toBe("New.Address@Example.com");
      expect((await users.findByEmail("new.address@example.com")).map((u) => u.id)).toEqual([
        me.user.id,
      ]);
      expect(await users.findByEmail("old-address@example.com")).toEqual([]);
      for (const email of [null, ""]) {
        const removed = await send(
          "PATCH",
          "/api/user",
          { email, currentPassword: me.password },
          me.cookie,
        );
        expect(removed.json<User>().email).toBeNull();
      }
      expect(await users.findByEmail("new.address@example.com")).toEqual([]);
    });

    it("refuses bad input with 400 naming the field, changing nothing", async () => {
      const me = await createUserWithSession(t, { email: "keep@example.com" });
      await send("PATCH", "/api/user", { displayName: "Kept Name" }, me.cookie);
      const cases: Array<[unknown, RegExp]> = [
        [{ email: "not-an-email" }, /^body\.email$/],
        [{ displayName: "x".repeat(DISPLAY_NAME_MAX_LENGTH + 1) }, /^body\.displayName$/],
        [{ displayName: 42 }, /^body\.displayName$/],
        [{}, /^body$/],
        [{ displayName: "Sneaky", email: "bad@" }, /^body\.email$/],
      ];
      for (const [body, message] of cases) {
        const res = await send("PATCH", "/api/user", body, me.cookie);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({
          code: "invalid_value",
          field: expect.stringMatching(message),
        });
      }
      expect(await getUser(me.cookie).then((r) => r.json<User>())).toMatchObject({
        displayName: "Kept Name",
        email: "keep@example.com",
      });
    });

    it("changes the email only with the current password, and never to one another account uses", async () => {
      const me = await createUserWithSession(t, { email: "mine@example.com" });
      const other = await createUserWithSession(t, { email: "Taken.Address@example.com" });
      const missing = await send("PATCH", "/api/user", { email: "thief@example.com" }, me.cookie);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        code: "invalid_value",
        field: "body.currentPassword",
      });
      const wrong = await send(
        "PATCH",
        "/api/user",
        { email: "thief@example.com", currentPassword: "stolen session, no password" },
        me.cookie,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        code: "auth.wrong_current_password",
        message: MESSAGES.currentPasswordIncorrect,
      });
      const taken = await send(
        "PATCH",
        "/api/user",
        { email: "taken.address@EXAMPLE.com", currentPassword: me.password },
        me.cookie,
      );
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ code: "auth.email_taken", message: MESSAGES.emailTaken });
      expect((await getUser(me.cookie)).json<User>().email).toBe("mine@example.com");
      expect((await users.findByEmail("taken.address@example.com")).map((u) => u.id)).toEqual([
        other.user.id,
      ]);
      // Registering with it is refused the same way; the display name alone needs no password.
      const register = await send("POST", "/api/register", {
        username: `newcomer${kind}`,
        password: "a long secret",
        email: "TAKEN.address@example.com",
        isPublic: true,
      });
      expect(register.statusCode).toBe(409);
      expect(register.json()).toEqual({ code: "auth.email_taken", message: MESSAGES.emailTaken });
      expect(
        (await send("PATCH", "/api/user", { displayName: "Just a name" }, me.cookie)).statusCode,
      ).toBe(200);
    });

    it("answers 401 when logged out", async () => {
      const res = await send("PATCH", "/api/user", { displayName: "Nobody" });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: "not_logged_in", message: MESSAGES.notLoggedIn });
    });
  });

  describe("POST /api/user/password", () => {
    const change = (body: unknown, cookie?: string) =>
      send("POST", "/api/user/password", body, cookie);

    it("refuses a wrong current password with 400 and changes nothing", async () => {
      const me = await createUserWithSession(t);
      const other = await secondSession(me);
      const before = await users.findById(me.user.id);
      const res = await change(
        { currentPassword: "not my password", newPassword: "brand new secret" },
        me.cookie,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: "auth.wrong_current_password",
        message: MESSAGES.currentPasswordIncorrect,
      });
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      expect((await users.findById(me.user.id))?.password_hash).toBe(before?.password_hash);
      expect((await getUser(me.cookie)).statusCode).toBe(200);
      expect((await getUser(other)).statusCode).toBe(200);
      expect((await login(me.user.username, me.password)).statusCode).toBe(200);
      expect((await login(me.user.username, "brand new secret")).statusCode).toBe(401);
    });

    it("refuses a new password under 6 characters and a missing field with 400", async () => {
      const me = await createUserWithSession(t);
      const short = await change({ currentPassword: me.password, newPassword: "12345" }, me.cookie);
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ code: "invalid_value", field: "body.newPassword" });
      const missing = await change({ newPassword: "long enough" }, me.cookie);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().field).toMatch(/^body\.currentPassword/);
      expect((await login(me.user.username, me.password)).statusCode).toBe(200);
    });

    it("sets the new password, ends every other session and pending reset links, keeps this browser in", async () => {
      const me = await createUserWithSession(t);
      const other = await secondSession(me);
      const resetTokens = new ResetTokensRepo(t.database.db);
      const now = new Date();
      await resetTokens.replaceForUser({
        token_hash: hashToken(newSecretToken()),
        user_id: me.user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
      });
      const res = await change(
        { currentPassword: me.password, newPassword: "brand new secret" },
        me.cookie,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const renewed = sessionCookie(res);
      expect(renewed).not.toBe(me.cookie);
      // This browser is still signed in, on a fresh session; every earlier cookie is dead.
      expect((await getUser(renewed)).json<User>().id).toBe(me.user.id);
      expect((await getUser(me.cookie)).statusCode).toBe(401);
      expect((await getUser(other)).statusCode).toBe(401);
      expect(await resetTokens.countForUser(me.user.id)).toBe(0);
      expect((await login(me.user.username, me.password)).statusCode).toBe(401);
      expect((await login(me.user.username, "brand new secret")).statusCode).toBe(200);
    });

    it("answers 401 when logged out", async () => {
      const res = await change({ currentPassword: "whatever", newPassword: "whatever else" });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: "not_logged_in", message: MESSAGES.notLoggedIn });
    });
  });

  describe("DELETE /api/user", () => {
    const remove = (body: unknown, cookie?: string) => send("DELETE", "/api/user", body, cookie);

    async function newMemory(owner: TestUser, title: string): Promise<Memory> {
      const uploaded = await upload(t, await fixture("tone.mp3"), { cookie: owner.cookie });
      expect(uploaded.statusCode).toBe(201);
      const res = await send(
        "POST",
        "/api/memories",
        {
          title,
          audioUrl: uploaded.json().url,
          transcript: `${title} transcript`,
          summary: `${title}.`,
          recordedAt: new Date().toISOString(),
          tags: ["family"],
        },
        owner.cookie,
      );
      expect(res.statusCode).toBe(201);
      return res.json<Memory>();
    }

    async function newComment(memory: Memory, by: TestUser, name: string): Promise<Comment> {
      const uploaded = await upload(t, await fixture("tone.mp3"), { cookie: by.cookie });
      const res = await send(
        "POST",
        `/api/memories/${memory.id}/comments`,
        { commenterName: name, audioUrl: uploaded.json().url },
        by.cookie,
      );
      expect(res.statusCode).toBe(201);
      return res.json<Comment>();
    }

    const audioId = (url: string) => url.replace("/api/audio/", "");

    /** Everything one family keeps: memories with audio, comments on them, a loose upload. */
    async function family(name: string) {
      const me = await createUserWithSession(t, { username: name, email: `${name}@example.com` });
      const neighbour = await createUserWithSession(t);
      const memories = [await newMemory(me, `${name} beach`), await newMemory(me, `${name} park`)];
      const comments = [
        await newComment(memories[0] as Memory, neighbour, "Neighbour"),
        await newComment(memories[1] as Memory, me, "Myself"),
      ];
      const loose = await upload(t, await fixture("tone.mp3"), { cookie: me.cookie });
      const audioIds = [
        ...memories.map((m) => audioId(m.audioUrl)),
        ...comments.map((c) => audioId(c.audioUrl)),
        loose.json<{ id: string }>().id,
      ];
      return { me, neighbour, memories, comments, audioIds };
    }

    const audioRepo = () => new AudioRepo(t.database.db);
    const storageKeysOf = async (ids: string[]) => {
      const rows = await audioRepo().findMany(ids);
      expect(rows).toHaveLength(ids.length);
      return rows.map((row) => row.storage_key);
    };

    it("refuses anything but the typed word with 400, deleting nothing", async () => {
      const f = await family("KeepEverything");
      const keys = await storageKeysOf(f.audioIds);
      for (const body of [{ confirm: "delet" }, { confirm: "" }, { confirm: "yes" }, {}]) {
        const res = await remove(body, f.me.cookie);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(["invalid_value", "account.invalid_confirmation"]).toContain(res.json().code);
      }
      const wrong = await remove(
        { confirm: "deleted", currentPassword: f.me.password },
        f.me.cookie,
      );
      expect(wrong.json()).toEqual({
        code: "account.invalid_confirmation",
        message: MESSAGES.invalidConfirmationDescription,
        field: "body.confirm",
      });
      expect((await getUser(f.me.cookie)).statusCode).toBe(200);
      for (const memory of f.memories) {
        expect(
          await new MemoriesRepo(t.database.db, t.database.kind).findById(memory.id),
        ).toBeDefined();
      }
      for (const key of keys) expect(await t.storage.size(key)).toBeGreaterThan(0);
    });

    it("refuses a missing or wrong current password with 400, deleting nothing", async () => {
      const f = await family("StolenSession");
      const missing = await remove({ confirm: "delete" }, f.me.cookie);
      expect(missing.statusCode).toBe(400);
      const wrong = await remove({ confirm: "delete", currentPassword: "guess" }, f.me.cookie);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        code: "auth.wrong_current_password",
        message: MESSAGES.currentPasswordIncorrect,
      });
      expect((await getUser(f.me.cookie)).statusCode).toBe(200);
      for (const memory of f.memories) {
        expect(
          await new MemoriesRepo(t.database.db, t.database.kind).findById(memory.id),
        ).toBeDefined();
      }
    });

    it("answers 401 when logged out", async () => {
      const res = await remove({ confirm: "delete", currentPassword: "anything" });
      expect(res.statusCode).toBe(401);
    });

    it("deletes the account with its memories, their comments, all audio rows and files, and sessions", async () => {
      const f = await family("LeavingFamily");
      const other = await secondSession(f.me);
      const keys = await storageKeysOf(f.audioIds);
      // Someone else's data: a memory with a comment, and a comment the leaving user left on it.
      const theirs = await newMemory(f.neighbour, "Neighbour garden");
      const theirComment = await newComment(theirs, f.neighbour, "Neighbour");
      const leftBehind = await newComment(theirs, f.me, "Visiting");
      const theirKeys = await storageKeysOf([
        audioId(theirs.audioUrl),
        audioId(theirComment.audioUrl),
        audioId(leftBehind.audioUrl),
      ]);
      const resetTokens = new ResetTokensRepo(t.database.db);
      await resetTokens.replaceForUser({
        token_hash: hashToken(newSecretToken()),
        user_id: f.me.user.id,
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      });

      const res = await remove({ confirm: "Delete", currentPassword: f.me.password }, f.me.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const cleared = res.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cleared?.value).toBe("");

      // The user, their sessions (this one and the other device's) and reset links are gone.
      expect(await users.findById(f.me.user.id)).toBeUndefined();
      expect((await getUser(f.me.cookie)).statusCode).toBe(401);
      expect((await getUser(other)).statusCode).toBe(401);
      expect(await resetTokens.countForUser(f.me.user.id)).toBe(0);
      expect((await login("LeavingFamily", f.me.password)).statusCode).toBe(401);
      const profile = await t.app.inject({ method: "GET", url: "/api/users/LeavingFamily" });
      expect(profile.statusCode).toBe(404);
      // Memories, their comments, and every audio row and file.
      const memoriesRepo = new MemoriesRepo(t.database.db, t.database.kind);
      const commentsRepo = new CommentsRepo(t.database.db);
      for (const memory of f.memories) {
        expect(await memoriesRepo.findById(memory.id)).toBeUndefined();
        expect(await commentsRepo.countForMemory(memory.id)).toBe(0);
      }
      expect(await audioRepo().findMany(f.audioIds)).toEqual([]);
      for (const key of keys) expect(await t.storage.size(key)).toBeNull();

      // The neighbour's memory, comments and audio are untouched, including the comment the
      // leaving user left there (it belongs to that memory); its upload no longer names them.
      const neighbourView = await t.app.inject({
        method: "GET",
        url: `/api/memories/${theirs.id}/comments`,
        headers: { cookie: f.neighbour.cookie },
      });
      expect(
        neighbourView
          .json<Comment[]>()
          .map((c) => c.id)
          .sort(),
      ).toEqual([theirComment.id, leftBehind.id].sort());
      for (const key of theirKeys) expect(await t.storage.size(key)).toBeGreaterThan(0);
      const heard = await t.app.inject({
        method: "GET",
        url: leftBehind.audioUrl,
        headers: { cookie: f.neighbour.cookie },
      });
      expect(heard.statusCode).toBe(200);
      expect((await audioRepo().findById(audioId(leftBehind.audioUrl)))?.owner_user_id).toBeNull();
      expect((await getUser(f.neighbour.cookie)).statusCode).toBe(200);
    });

    it("deletes a large account whole (ids go to the database in chunks)", async () => {
      const me = await createUserWithSession(t);
      const memoriesRepo = new MemoriesRepo(t.database.db, t.database.kind);
      await memoriesRepo.insertMany(
        Array.from({ length: 1_234 }, (_, i) => ({
          userId: me.user.id,
          audioId: null,
          title: `Memory ${i}`,
          status: "saved" as const,
        })),
      );
      const last = await t.app.inject({
        method: "GET",
        url: "/api/memories",
        headers: { cookie: me.cookie },
      });
      expect(last.json<MemoryPage>().total).toBe(1_234);
      const someId = last.json<MemoryPage>().items[0]?.id as string;
      expect(
        (await remove({ confirm: "delete", currentPassword: me.password }, me.cookie)).statusCode,
      ).toBe(200);
      expect(await memoriesRepo.findById(someId)).toBeUndefined();
      expect(
        (await memoriesRepo.list({ journalId: ownJournalId(me.user.id), savedOnly: false }, 1))
          .total,
      ).toBe(0);
    });

    it("leaves no memory, audio row or file behind when memories are being made meanwhile", async () => {
      const me = await createUserWithSession(t);
      const uploads: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await upload(t, await fixture("tone.mp3"), { cookie: me.cookie });
        uploads.push(res.json<{ url: string }>().url);
      }
      const keys = await storageKeysOf(uploads.map(audioId));
      const create = (audioUrl: string) =>
        send(
          "POST",
          "/api/memories",
          {
            title: "Racing",
            audioUrl,
            transcript: "",
            summary: "",
            recordedAt: new Date().toISOString(),
          },
          me.cookie,
        );
      const [deleted, ...created] = await Promise.all([
        remove({ confirm: "delete", currentPassword: me.password }, me.cookie),
        ...uploads.map(create),
      ]);
      expect(deleted?.statusCode).toBe(200);
      // Each creation either finished before the deletion (and went with it) or was refused:
      // its session or upload was gone (401, 400, 409), or, blocked by the deletion's lock, it
      // failed on the missing user (500) or was PostgreSQL's deadlock victim (500).
      for (const res of created) expect([201, 400, 401, 409, 500]).toContain(res.statusCode);
      expect(await audioRepo().findMany(uploads.map(audioId))).toEqual([]);
      for (const key of keys) expect(await t.storage.size(key)).toBeNull();
      const memoriesRepo = new MemoriesRepo(t.database.db, t.database.kind);
      for (const res of created.filter((r) => r.statusCode === 201)) {
        expect(await memoriesRepo.findById(res.json<Memory>().id)).toBeUndefined();
      }
    });

    it("frees the username: a new account may take it and starts empty", async () => {
      const f = await family("ReusedName");
      expect(
        (await remove({ confirm: "delete", currentPassword: f.me.password }, f.me.cookie))
          .statusCode,
      ).toBe(200);
      const again = await send("POST", "/api/register", {
        username: "reusedname",
        password: "another secret",
        isPublic: true,
      });
      expect(again.statusCode).toBe(201);
      const fresh = sessionCookie(again);
      expect(again.json<User>().id).not.toBe(f.me.user.id);
      const list = await t.app.inject({
        method: "GET",
        url: "/api/memories",
        headers: { cookie: fresh },
      });
      expect(list.json<MemoryPage>().total).toBe(0);
      // The old memory links stay gone for everyone, the new owner included.
      const old = await t.app.inject({
        method: "GET",
        url: `/api/memories/${f.memories[0]?.id}`,
        headers: { cookie: fresh },
      });
      expect(old.statusCode).toBe(404);
    });
  });
});

describe.each(DATABASE_KINDS)("password change limits on %s", (kind) => {
  const PER_MINUTE = 3;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { RATE_LIMIT_AUTH_PER_MINUTE: String(PER_MINUTE) },
    });
  });
  afterAll(async () => t.cleanup());

  it("limits guesses of the current password per account, from any address", async () => {
    const me = await createUserWithSession(t);
    const someoneElse = await createUserWithSession(t);
    const attempt = (cookie: string, currentPassword: string, ip: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/user/password",
        payload: { currentPassword, newPassword: "brand new secret" },
        headers: { cookie },
        remoteAddress: ip,
      });
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) {
      statuses.push((await attempt(me.cookie, `guess-${i}`, `10.77.0.${i + 1}`)).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    const limited = await attempt(me.cookie, me.password, "10.77.1.1");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "too_many_requests",
      message: MESSAGES.tooManyRequests,
    });
    expect(limited.headers["retry-after"]).toBeDefined();
    // The password did not change, and another account is not affected.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/login",
          payload: { username: me.user.username, password: me.password },
          remoteAddress: "10.77.2.1",
        })
      ).statusCode,
    ).toBe(200);
    expect((await attempt(someoneElse.cookie, "wrong", "10.77.3.1")).statusCode).toBe(400);
  });
});
