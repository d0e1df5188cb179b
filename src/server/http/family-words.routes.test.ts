import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_MESSAGES, isErrorCode } from "../../shared/messages";
import { newId } from "../ids";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";

interface Refusal {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  as?: "owner" | "other";
  payload?: unknown;
  headers?: Record<string, string>;
  status: number;
}

/**
 * Refusals of representative routes, as families meet them: a wrong password, a taken name, a bad
 * form, a memory that is not theirs or not there, a missing login, a malformed request.
 */
const REFUSALS: Refusal[] = [
  {
    name: "a wrong password",
    method: "POST",
    url: "/api/login",
    payload: { username: "nobody-here", password: "wrong-one" },
    status: 401,
  },
  { name: "an empty log-in form", method: "POST", url: "/api/login", payload: {}, status: 400 },
  {
    name: "a taken username",
    method: "POST",
    url: "/api/register",
    payload: { username: "OWNER", email: "other@example.org", password: "secret1" },
    status: 409,
  },
  {
    name: "a bad sign-up form",
    method: "POST",
    url: "/api/register",
    payload: { username: "a b", email: "not-an-address", password: "1" },
    status: 400,
  },
  {
    name: "malformed JSON",
    method: "POST",
    url: "/api/login",
    payload: "{not json",
    headers: { "content-type": "application/json" },
    status: 400,
  },
  { name: "no login", method: "GET", url: "/api/reminders", status: 401 },
  {
    name: "a time zone that is an offset",
    method: "PUT",
    url: "/api/reminders",
    as: "owner",
    payload: {
      weekly: { enabled: true, weekday: 0, hour: 18, timeZone: "+01:00" },
      specialDays: [],
    },
    status: 400,
  },
  { name: "a memory that is not there", method: "GET", url: "/api/memories/nope", status: 404 },
  {
    name: "an edit of someone else's memory",
    method: "PATCH",
    url: "/api/memories/MEMORY",
    as: "other",
    payload: { title: "Mine now" },
    status: 404,
  },
  {
    name: "a comment without a name",
    method: "POST",
    url: "/api/memories/MEMORY/comments",
    payload: { commenterName: "", audioUrl: "/api/audio/x" },
    status: 400,
  },
  {
    name: "a share link without a name",
    method: "POST",
    url: "/api/share-links",
    as: "owner",
    payload: { label: "  " },
    status: 400,
  },
  {
    name: "a share link that is not there",
    method: "DELETE",
    url: "/api/share-links/nope",
    as: "owner",
    status: 404,
  },
  { name: "an unknown API path", method: "GET", url: "/api/no-such-thing", status: 404 },
];

describe.each(DATABASE_KINDS)("what a refusal says (%s)", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let memoryId: string;

  beforeAll(async () => {
    t = await createTestApp({ kind });
    owner = await createUserWithSession(t, { username: "owner" });
    other = await createUserWithSession(t);
    // A saved memory of the owner's, to refuse someone else's edit of it.
    memoryId = newId();
    const now = new Date().toISOString();
    await t.database.db
      .insertInto("memories")
      .values({
        id: memoryId,
        user_id: owner.user.id,
        journal_id: ownJournalId(owner.user.id),
        storyteller_id: ownMemberId(owner.user.id),
        anon_owner_hash: null,
        claim_expires_at: null,
        audio_id: null,
        title: "Snow day",
        transcript: "It snowed.",
        summary: "",
        scores: "{}",
        duration: 1,
        recorded_at: now,
        tags: "[]",
        status: "saved",
        stage: null,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it.each(REFUSALS)("$name: the product's words, with the right status", async (refusal) => {
    const cookie =
      refusal.as === "owner" ? owner.cookie : refusal.as === "other" ? other.cookie : undefined;
    const res = await t.app.inject({
      method: refusal.method,
      url: refusal.url.replace("MEMORY", memoryId),
      headers: { ...refusal.headers, ...(cookie ? { cookie } : {}) },
      ...(refusal.payload === undefined
        ? {}
        : {
            payload:
              typeof refusal.payload === "string"
                ? refusal.payload
                : (refusal.payload as Record<string, unknown>),
          }),
    });
    expect(res.statusCode, res.body).toBe(refusal.status);
    if (refusal.as === "other") {
      // The memory is there: only its owner may change it.
      const own = await t.app.inject({
        method: "GET",
        url: `/api/memories/${memoryId}`,
        headers: { cookie: owner.cookie },
      });
      expect(own.statusCode).toBe(200);
    }
    const body = res.json() as { code?: unknown; message?: unknown };
    // A code of the catalogue, and the catalogue's words for it: nothing else.
    expect(isErrorCode(body.code), res.body).toBe(true);
    expect(body).toMatchObject({
      code: body.code,
      message: ERROR_MESSAGES[body.code as "not_found"],
    });
  });
});
