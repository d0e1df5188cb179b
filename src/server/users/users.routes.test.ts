import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { ownJournalId } from "../journals/journals.repo";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { UsersRepo } from "./users.repo";
import { UsersService } from "./users.service";

describe.each(DATABASE_KINDS)("profiles and visibility on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => t.cleanup());

  const profile = (username: string, cookie?: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/users/${encodeURIComponent(username)}`,
      headers: cookie ? { cookie } : {},
    });
  const setVisibility = (payload: unknown, cookie?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/user/visibility",
      payload: payload as object,
      headers: cookie ? { cookie } : {},
    });

  it("shows a public profile to anyone, case-insensitively, without the email", async () => {
    const { user } = await createUserWithSession(t, {
      username: "PublicPat",
      email: "pat@example.com",
    });
    for (const name of ["PublicPat", "publicpat"]) {
      const res = await profile(name);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: user.id,
        username: "PublicPat",
        displayName: null,
        isPublic: true,
        sharedWithYou: false,
      });
    }
  });

  it("answers 404 'Profile not found' for a missing or private profile, but shows the owner theirs", async () => {
    const owner = await createUserWithSession(t, { username: "PrivatePenny", isPublic: false });
    const stranger = await createUserWithSession(t);
    const missing = await profile("nobody-here");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      code: "profile.not_found",
      message: MESSAGES.profileNotFound,
    });
    for (const cookie of [undefined, stranger.cookie]) {
      const res = await profile("PrivatePenny", cookie);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    const own = await profile("privatepenny", owner.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ username: "PrivatePenny", isPublic: false });
    const tooLong = await profile("x".repeat(500));
    expect(tooLong.statusCode).toBe(414);
    expect(typeof tooLong.json().message).toBe("string");
  });

  it("toggles visibility for the logged-in user and returns the updated user", async () => {
    const me = await createUserWithSession(t, { username: "Toggler" });
    const priv = await setVisibility({ isPublic: false }, me.cookie);
    expect(priv.statusCode).toBe(200);
    expect(priv.json()).toMatchObject({ id: me.user.id, isPublic: false });
    expect((await profile("Toggler")).statusCode).toBe(404);
    const pub = await setVisibility({ isPublic: true }, me.cookie);
    expect(pub.json()).toMatchObject({ isPublic: true });
    expect((await profile("Toggler")).statusCode).toBe(200);
  });

  it("refuses visibility changes when logged out or with a bad body, changing nothing", async () => {
    const me = await createUserWithSession(t);
    const loggedOut = await setVisibility({ isPublic: false });
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ code: "not_logged_in", message: MESSAGES.notLoggedIn });
    for (const body of [{}, { isPublic: "false" }, { isPublic: 0 }]) {
      const res = await setVisibility(body, me.cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toMatch(/^body\.isPublic/);
    }
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/user/visibility",
      headers: { cookie: me.cookie, "content-type": "application/json" },
      payload: "{isPublic:",
    });
    expect(malformed.statusCode).toBe(400);
    const row = await new UsersRepo(t.database.db).findById(me.user.id);
    expect(Number(row?.is_public)).toBe(1);
  });

  it("answers isVisibleTo and getVisibleProfile for other features", async () => {
    const service = new UsersService(new UsersRepo(t.database.db));
    const pub = await createUserWithSession(t, { isPublic: true });
    const priv = await createUserWithSession(t, { isPublic: false });
    const nobody = { userId: null };
    expect(await service.isVisibleTo(pub.user.id, nobody)).toBe(true);
    expect(await service.isVisibleTo(priv.user.id, nobody)).toBe(false);
    expect(await service.isVisibleTo(priv.user.id, { userId: pub.user.id })).toBe(false);
    expect(await service.isVisibleTo(priv.user.id, { userId: priv.user.id })).toBe(true);
    expect(await service.isVisibleTo("no-such-id", nobody)).toBe(false);
    expect(await service.getVisibleProfile(priv.user.username, nobody)).toBeNull();
    // A share link of the private profile's owner opens it, and only it (ADR 0019).
    const linked = { userId: null, sharedJournalIds: [ownJournalId(priv.user.id)] };
    expect(await service.isVisibleTo(priv.user.id, linked)).toBe(true);
    expect(await service.isVisibleTo(priv.user.id, { userId: null, sharedJournalIds: ["x"] })).toBe(
      false,
    );
    expect(
      await service.getVisibleProfile(priv.user.username, { userId: priv.user.id }),
    ).toMatchObject({
      id: priv.user.id,
      isPublic: false,
    });
    expect(await service.getVisibleProfile("missing-user", { userId: priv.user.id })).toBeNull();
  });
});
