import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoriesRepo } from "./memories/memories.repo";
import { createUserWithSession, type TestUser } from "./test/auth-helpers";
import { createTestApp, type TestApp } from "./test/harness";

// Every JSON route of the API, fed generated hostile input: the answer is never a 5xx.
const JSON_ROUTES: { method: "POST" | "PUT"; url: (id: string) => string }[] = [
  { method: "POST", url: () => "/api/register" },
  { method: "POST", url: () => "/api/login" },
  { method: "POST", url: () => "/api/forgot-password" },
  { method: "POST", url: () => "/api/reset-password" },
  { method: "POST", url: () => "/api/user/visibility" },
  { method: "POST", url: () => "/api/memories" },
  { method: "POST", url: () => "/api/memories/process" },
  { method: "PUT", url: (id) => `/api/memories/${id}` },
  { method: "POST", url: (id) => `/api/memories/${id}/comments` },
  { method: "POST", url: (id) => `/api/memories/${id}/claim` },
  { method: "POST", url: (id) => `/api/memories/${id}/retry` },
];

const GET_ROUTES: ((segment: string, query: string) => string)[] = [
  (s) => `/api/memories/${s}`,
  (_s, q) => `/api/memories/search?q=${q}`,
  (_s, q) => `/api/memories?page=${q}`,
  (s) => `/api/users/${s}`,
  (s, q) => `/api/users/${s}/memories/search?q=${q}`,
  (s) => `/api/memories/${s}/comments`,
  (s) => `/api/audio/${s}`,
];

/** Strings that have broken parsers before: quotes, operators, NUL, emoji, huge. */
const hostileString = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.constantFrom(
    "",
    " ",
    "'; drop table memories; --",
    "grandfather's \"(beach",
    "NEAR(a b) OR AND NOT * : ^ -",
    "\u0000\u0001",
    "😀👨‍👩‍👧",
    "a".repeat(10_000),
    "../../etc/passwd",
    "%00",
    "2026-13-45T99:99:99Z",
  ),
);

const hostileValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 8 }),
);

/** Bodies shaped like the real ones, with fields swapped for hostile values, plus pure noise. */
const hostileBody = fc.oneof(
  fc.record(
    {
      username: hostileValue,
      password: hostileValue,
      email: hostileValue,
      isPublic: hostileValue,
      token: hostileValue,
      title: hostileValue,
      transcript: hostileValue,
      summary: hostileValue,
      recordedAt: hostileValue,
      tags: hostileValue,
      scores: fc.oneof(hostileValue, fc.dictionary(hostileString, hostileValue, { maxKeys: 8 })),
      audioUrl: hostileValue,
      commenterName: hostileValue,
      duration: hostileValue,
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 3 }),
);

describe("the API under generated hostile input", () => {
  let t: TestApp;
  let user: TestUser;
  let memoryId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_AUTH_PER_MINUTE: "100000", RATE_LIMIT_COMMENTS_PER_HOUR: "100000" },
    });
    user = await createUserWithSession(t, { username: "prop_user" });
    memoryId = (
      await new MemoriesRepo(t.database.db, t.database.kind).insert({
        userId: user.user.id,
        audioId: null,
        status: "saved",
        title: "A day at the beach",
      })
    ).id;
  });
  afterAll(async () => t.cleanup());

  it("never answers a JSON body with a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...JSON_ROUTES),
        hostileBody,
        fc.boolean(),
        async (route, body, loggedIn) => {
          const res = await t.app.inject({
            method: route.method,
            url: route.url(memoryId),
            headers: {
              "content-type": "application/json",
              ...(loggedIn ? { cookie: user.cookie } : {}),
            },
            payload: JSON.stringify(body) ?? "null",
          });
          expect(res.statusCode, `${route.method} ${route.url(memoryId)} ${res.body}`).toBeLessThan(
            500,
          );
          expect(typeof res.json().message === "string" || res.statusCode < 300).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never answers hostile paths or queries with a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...GET_ROUTES),
        hostileString,
        hostileString,
        fc.boolean(),
        async (route, segment, query, loggedIn) => {
          const url = route(encodeURIComponent(segment) || "x", encodeURIComponent(query));
          const res = await t.app.inject({
            method: "GET",
            url,
            headers: loggedIn ? { cookie: user.cookie } : {},
          });
          expect(res.statusCode, `GET ${url} ${res.body.slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never answers malformed JSON text with a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...JSON_ROUTES),
        fc.string({ maxLength: 200 }),
        async (route, text) => {
          const res = await t.app.inject({
            method: route.method,
            url: route.url(memoryId),
            headers: { "content-type": "application/json", cookie: user.cookie },
            payload: text,
          });
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
