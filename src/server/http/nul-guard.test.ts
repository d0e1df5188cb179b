import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_MESSAGES } from "../../shared/messages";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";

const NUL = "\u0000";

describe.each(DATABASE_KINDS)("a NUL byte anywhere in a request (%s)", (kind) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    user = await createUserWithSession(t);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it.each([
    ["a memory id", "GET", "/api/memories/x%00y"],
    ["a memory id to delete", "DELETE", "/api/memories/x%00y"],
    ["a memory id to comment on", "POST", "/api/memories/x%00y/comments"],
    ["a comment id", "DELETE", "/api/memories/abc/comments/x%00y"],
    ["an audio id", "GET", "/api/audio/x%00y"],
    ["a username", "GET", "/api/users/a%00b"],
    ["a username's memories", "GET", "/api/users/a%00b/memories"],
    ["a search", "GET", "/api/memories/search?q=a%00b"],
    ["a profile search", "GET", "/api/users/someone/memories/search?q=a%00b"],
    ["an unknown API path", "GET", "/api/nothing%00here"],
  ])("answers 400 for %s in the URL, anonymous or logged in", async (_name, method, url) => {
    for (const cookie of [undefined, user.cookie]) {
      const res = await t.app.inject({
        method: method as "GET",
        url,
        headers: cookie ? { cookie } : {},
        ...(method === "POST" ? { payload: { commenterName: "Gran", audioUrl: "/x" } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json()).toEqual({ code: "nul_character", message: ERROR_MESSAGES.nul_character });
    }
  });

  it.each([
    ["a login name", "/api/login", { username: `gran${NUL}`, password: "secret1" }],
    [
      "a new account",
      "/api/register",
      { username: `gr${NUL}an`, password: "secret12", displayName: `G${NUL}` },
    ],
    ["a reset email", "/api/forgot-password", { email: `gran${NUL}@example.com` }],
    ["a reset token", "/api/reset-password", { token: `t${NUL}`, password: "secret12" }],
    ["an audio URL", "/api/memories/process", { audioUrl: `/api/audio/${NUL}` }],
    [
      "a nested value",
      "/api/memories",
      { title: "t", transcript: "x", summary: "s", tags: ["ok", `b${NUL}ad`] },
    ],
    ["a key", "/api/login", { username: "gran", password: "secret1", [`x${NUL}`]: 1 }],
  ])("answers 400 for %s in a JSON body, anonymous or logged in", async (_name, url, body) => {
    for (const cookie of [undefined, user.cookie]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        payload: JSON.stringify(body),
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ code: "nul_character", message: ERROR_MESSAGES.nul_character });
    }
  });

  it("answers 400 for a NUL byte in an owner's memory edit", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/memories/some-id",
      payload: { title: `a${NUL}b` },
      headers: { cookie: user.cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: "nul_character", message: ERROR_MESSAGES.nul_character });
  });

  it("lets an escaped NUL through as text (it is not a NUL byte)", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/memories/search?q=%2500" });
    expect(res.statusCode).not.toBe(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
