import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Memory, UnclaimedMemories } from "../../shared/schemas";
import type { AiProviders } from "../ai/ai";
import { VISITOR_COOKIE } from "../auth/session.service";
import { speechMp3 } from "../test/audio-fixtures";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import {
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
} from "../test/openai-stub";
import { multipart } from "../test/upload-helpers";

let stub: OpenAiStub;
let mp3: Buffer;
const openAi = (): AiProviders => stubProviders(stub);

beforeAll(async () => {
  stub = await startOpenAiStub();
  mp3 = await speechMp3("We went to the beach.");
});
afterAll(async () => {
  await stub.close();
});

const cookies = (...parts: (string | undefined)[]) => parts.filter(Boolean).join("; ");

/** The summary step fails, so the memory ends 'failed' (a silent recording ends the same way). */
const summaryDown = (request: Parameters<typeof defaultStubHandler>[0]) =>
  request.path.endsWith("/chat/completions") && request.json?.response_format === undefined
    ? { status: 500, body: { error: { message: "summary service down" } } }
    : defaultStubHandler(request);

/** Uploads and processes one recording as this browser; returns the memory and the cookie. */
async function record(t: TestApp, cookie?: string): Promise<{ memory: Memory; cookie: string }> {
  const body = multipart(mp3);
  const up = await t.app.inject({
    method: "POST",
    url: "/api/upload",
    payload: body.payload,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
  });
  expect(up.statusCode).toBe(201);
  const visitor = up.cookies.find((c) => c.name === VISITOR_COOKIE);
  const browser = cookies(cookie, visitor ? `${VISITOR_COOKIE}=${visitor.value}` : undefined);
  const processed = await t.app.inject({
    method: "POST",
    url: "/api/memories/process",
    payload: { audioUrl: up.json<{ url: string }>().url },
    headers: { cookie: browser },
  });
  expect(processed.statusCode).toBe(201);
  return { memory: processed.json<Memory>(), cookie: browser };
}

async function unclaimed(t: TestApp, cookie?: string) {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/memories/unclaimed",
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(200);
  return response.json<UnclaimedMemories>().items;
}

describe.each(DATABASE_KINDS)("GET /api/memories/unclaimed and discarding (%s)", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0", RATE_LIMIT_PROCESS_PER_HOUR: "100" },
      deps: { ai: openAi() },
    });
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => {
    stub.handle(defaultStubHandler);
  });

  it("lists what this browser recorded in any state, newest first; another browser sees nothing", async () => {
    const first = await record(t);
    await t.app.worker.drain();
    stub.handle(summaryDown);
    const second = await record(t, first.cookie);
    await t.app.worker.drain();
    stub.handle(defaultStubHandler);
    const third = await record(t, first.cookie);

    const items = await unclaimed(t, first.cookie);
    expect(items.map((m) => [m.id, m.status])).toEqual([
      [third.memory.id, "processing"],
      [second.memory.id, "failed"],
      [first.memory.id, "saved"],
    ]);
    for (const item of items) {
      expect(item.user_id).toBeNull();
      expect(Date.parse(item.claimExpiresAt)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    }

    // No cookie, another visitor, or an account logged in elsewhere: nothing.
    expect(await unclaimed(t)).toEqual([]);
    const other = await record(t);
    expect((await unclaimed(t, other.cookie)).map((m) => m.id)).toEqual([other.memory.id]);
    const elsewhere = await createUserWithSession(t);
    expect(await unclaimed(t, elsewhere.cookie)).toEqual([]);
    await t.app.worker.drain();
  });

  it("still lists them once this browser has logged in; a claimed one is no longer listed", async () => {
    const a = await record(t);
    const b = await record(t, a.cookie);
    await t.app.worker.drain();
    const user = await createUserWithSession(t);
    const loggedIn = cookies(user.cookie, a.cookie);
    expect((await unclaimed(t, loggedIn)).map((m) => m.id)).toEqual([b.memory.id, a.memory.id]);

    const claim = await t.app.inject({
      method: "POST",
      url: `/api/memories/${a.memory.id}/claim`,
      headers: { cookie: loggedIn },
    });
    expect(claim.statusCode).toBe(200);
    expect((await unclaimed(t, loggedIn)).map((m) => m.id)).toEqual([b.memory.id]);
    expect((await unclaimed(t, a.cookie)).map((m) => m.id)).toEqual([b.memory.id]);
    // What the account recorded itself (in the same browser) is never "unclaimed".
    await record(t, loggedIn);
    expect((await unclaimed(t, loggedIn)).map((m) => m.id)).toEqual([b.memory.id]);
    await t.app.worker.drain();
  });

  it("lets the recording browser discard its unclaimed memory, and nobody else", async () => {
    stub.handle(summaryDown);
    const mine = await record(t);
    await t.app.worker.drain();
    stub.handle(defaultStubHandler);
    const del = (cookie?: string) =>
      t.app.inject({
        method: "DELETE",
        url: `/api/memories/${mine.memory.id}`,
        headers: cookie ? { cookie } : {},
      });

    expect((await del()).statusCode).toBe(401);
    const stranger = await record(t);
    expect((await del(stranger.cookie)).statusCode).toBe(401);
    const account = await createUserWithSession(t);
    expect((await del(account.cookie)).statusCode).toBe(404);
    expect((await unclaimed(t, mine.cookie)).map((m) => m.id)).toEqual([mine.memory.id]);

    const deleted = await del(mine.cookie);
    expect(deleted.statusCode).toBe(200);
    expect(await unclaimed(t, mine.cookie)).toEqual([]);
    const gone = await t.app.inject({
      method: "GET",
      url: `/api/memories/${mine.memory.id}`,
      headers: { cookie: mine.cookie },
    });
    expect(gone.statusCode).toBe(404);
    const audio = await t.app.inject({
      method: "GET",
      url: mine.memory.audioUrl,
      headers: { cookie: mine.cookie },
    });
    expect(audio.statusCode).toBe(404);
    // Gone: logged out, like any route for your own memories, it answers 401.
    expect((await del(mine.cookie)).statusCode).toBe(401);
    await t.app.worker.drain();
  });

  it("a claimed memory can no longer be deleted by the browser alone, only by its owner", async () => {
    const mine = await record(t);
    await t.app.worker.drain();
    const user = await createUserWithSession(t);
    const claim = await t.app.inject({
      method: "POST",
      url: `/api/memories/${mine.memory.id}/claim`,
      headers: { cookie: cookies(user.cookie, mine.cookie) },
    });
    expect(claim.statusCode).toBe(200);
    const asVisitor = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${mine.memory.id}`,
      headers: { cookie: mine.cookie },
    });
    expect(asVisitor.statusCode).toBe(401);
    const asOwner = await t.app.inject({
      method: "DELETE",
      url: `/api/memories/${mine.memory.id}`,
      headers: { cookie: cookies(user.cookie, mine.cookie) },
    });
    expect(asOwner.statusCode).toBe(200);
  });

  it("does not list a memory whose claim window has closed", async () => {
    const short = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0", CLAIM_WINDOW_HOURS: "0.00001" },
      deps: { ai: openAi() },
    });
    try {
      const expired = await record(short);
      await new Promise((r) => setTimeout(r, 100));
      expect(await unclaimed(short, expired.cookie)).toEqual([]);
      // It is still there (and still this browser's to see); only the chance to claim it ended.
      const still = await short.app.inject({
        method: "GET",
        url: `/api/memories/${expired.memory.id}`,
        headers: { cookie: expired.cookie },
      });
      expect(still.statusCode).toBe(200);
    } finally {
      await short.cleanup();
    }
  });
});
