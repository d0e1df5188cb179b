import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ERROR_MESSAGES, type ErrorCode, MESSAGES } from "../../shared/messages";
import { QUESTIONS } from "../../shared/questions";
import type { Memory } from "../../shared/schemas";
import type { AiProviders } from "../ai/ai";
import { VISITOR_COOKIE } from "../auth/session.service";
import { wordsIn } from "../i18n/words";
import { newId } from "../ids";
import { speechMp3 } from "../test/audio-fixtures";
import { createUserWithSession } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import {
  chatReply,
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
  transcriptionReply,
} from "../test/openai-stub";

/** The body of an error answer with this code. */
const refusal = (code: ErrorCode) => ({ code, message: ERROR_MESSAGES[code] });

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

function multipart(content: Buffer) {
  const boundary = `----vmj${newId()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="recording.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const cookies = (...parts: (string | undefined)[]) => parts.filter(Boolean).join("; ");

describe.each(DATABASE_KINDS)("memory processing API (%s)", (kind) => {
  let t: TestApp;

  /** Uploads as this browser; returns the url and the cookie (with a new visitor mark if needed). */
  async function upload(cookie?: string): Promise<{ url: string; cookie: string }> {
    const body = multipart(mp3);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/upload",
      payload: body.payload,
      headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    });
    expect(response.statusCode).toBe(201);
    const visitor = response.cookies.find((c) => c.name === VISITOR_COOKIE);
    return {
      url: response.json<{ url: string }>().url,
      cookie: cookies(cookie, visitor ? `${VISITOR_COOKIE}=${visitor.value}` : undefined),
    };
  }

  async function process(cookie: string, audioUrl: string, recordedAt?: string) {
    return t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: { audioUrl, ...(recordedAt ? { recordedAt } : {}) },
      headers: { cookie },
    });
  }

  async function get(id: string, cookie?: string) {
    return t.app.inject({
      method: "GET",
      url: `/api/memories/${id}`,
      headers: cookie ? { cookie } : {},
    });
  }

  const post = (url: string, cookie?: string) =>
    t.app.inject({ method: "POST", url, headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: {
        WORKER_CONCURRENCY: "0",
        ANON_DAILY_RECORDINGS: "5",
        RATE_LIMIT_PROCESS_PER_HOUR: "50",
      },
      deps: { ai: openAi() },
    });
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => {
    stub.handle(defaultStubHandler);
  });

  it("keeps a built-in question asked in Spanish (a reminder mail's link) as the library's own", async () => {
    const owner = await createUserWithSession(t);
    const recorded = await upload(owner.cookie);
    const spanish = wordsIn("es").QUESTIONS[5] as string;
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: { audioUrl: recorded.url, question: spanish },
      headers: { cookie: recorded.cookie },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<Memory>().question).toBe(QUESTIONS[5]);
    // Processed, so the next test's queue starts empty.
    expect(await t.app.worker.drain()).toBe(1);
  });

  it("records anonymously, shows progress by polling, saves, and the same browser claims it once", async () => {
    const anon = await upload();
    const created = await process(anon.cookie, anon.url, "2026-05-01T10:00:00.000Z");
    expect(created.statusCode).toBe(201);
    const memory = created.json<Memory>();
    expect(memory).toMatchObject({
      status: "processing",
      stage: "transcribe",
      user_id: null,
      audioUrl: anon.url,
      recordedAt: "2026-05-01T10:00:00.000Z",
    });
    // The browser that recorded it can poll it; nobody else sees it.
    expect((await get(memory.id, anon.cookie)).json<Memory>().status).toBe("processing");
    expect((await get(memory.id)).statusCode).toBe(404);

    expect(await t.app.worker.drain()).toBe(1);
    const saved = (await get(memory.id, anon.cookie)).json<Memory>();
    expect(saved).toMatchObject({
      status: "saved",
      stage: null,
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    expect(saved.duration).toBe(mp3.length / 16000);

    // Logged out: 401. Logged in from another browser: 404.
    expect((await post(`/api/memories/${memory.id}/claim`, anon.cookie)).statusCode).toBe(401);
    const owner = await createUserWithSession(t);
    expect((await post(`/api/memories/${memory.id}/claim`, owner.cookie)).statusCode).toBe(404);

    const claimed = await post(
      `/api/memories/${memory.id}/claim`,
      cookies(owner.cookie, anon.cookie),
    );
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json<Memory>().user_id).toBe(owner.user.id);
    const again = await post(
      `/api/memories/${memory.id}/claim`,
      cookies(owner.cookie, anon.cookie),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(refusal("memory.already_claimed"));

    const list = await t.app.inject({
      method: "GET",
      url: "/api/memories",
      headers: { cookie: owner.cookie },
    });
    expect(list.json<{ items: Memory[] }>().items.map((m) => m.id)).toContain(memory.id);
    // The audio now belongs to the account too.
    const audio = await t.app.inject({
      method: "GET",
      url: anon.url,
      headers: { cookie: owner.cookie },
    });
    expect(audio.statusCode).toBe(200);
  });

  it("saves a memory whose provider text holds NUL and other control characters, cleaned", async () => {
    const dirty = "We went\u0000 to the\u0001 beach\r\nand Grandpa\u001f swam\rand\tlaughed.";
    stub.handle((request) => {
      if (request.path.endsWith("/audio/transcriptions")) {
        return transcriptionReply(request, dirty, 3);
      }
      const json = request.json ?? {};
      const messages = (json.messages as { content: string }[] | undefined) ?? [];
      if ((json.response_format as { type?: string } | undefined)?.type === "json_object") {
        if (messages[0]?.content.includes('"tags"')) {
          return chatReply(JSON.stringify({ tags: ["beach\u0000 day", "grand\u0008pa", "sea"] }));
        }
        return defaultStubHandler(request);
      }
      return chatReply("A day\u0000 at the\u0002 beach.\r\nYou built\u0000 a castle, my love.");
    });
    const anon = await upload();
    const created = await process(anon.cookie, anon.url);
    expect(created.statusCode).toBe(201);
    const id = created.json<Memory>().id;
    await t.app.worker.drain();
    const saved = (await get(id, anon.cookie)).json<Memory>();
    expect(saved.status, JSON.stringify(saved)).toBe("saved");
    expect(saved.transcript).toBe("We went to the beach\nand Grandpa swam\nand\tlaughed.");
    expect(saved.summary).toBe("A day at the beach.\nYou built a castle, my love.");
    expect(hasControl(saved.title)).toBe(false);
    expect(saved.title).toContain("A day at the beach");
    expect(saved.tags).toEqual(["beach day", "grandpa", "sea"]);
    const row = await t.database.db
      .selectFrom("memories")
      .select("transcript_segments")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const segments = JSON.parse(row.transcript_segments ?? "[]") as { text: string }[];
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) expect(hasControl(segment.text, "\t\n")).toBe(false);
    expect(segments.map((segment) => segment.text).join(" ")).toContain("We went to the beach");
  });

  it("lets only one of two concurrent claims win", async () => {
    const anon = await upload();
    const memory = (await process(anon.cookie, anon.url)).json<Memory>();
    const a = await createUserWithSession(t);
    const b = await createUserWithSession(t);
    const results = await Promise.all([
      post(`/api/memories/${memory.id}/claim`, cookies(a.cookie, anon.cookie)),
      post(`/api/memories/${memory.id}/claim`, cookies(b.cookie, anon.cookie)),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)?.json<Memory>().user_id;
    expect([a.user.id, b.user.id]).toContain(winner);
    await t.app.worker.drain();
  });

  it("refuses a claim after the window", async () => {
    const short = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0", CLAIM_WINDOW_HOURS: "0.00001" },
      deps: { ai: openAi() },
    });
    try {
      const body = multipart(mp3);
      const up = await short.app.inject({
        method: "POST",
        url: "/api/upload",
        payload: body.payload,
        headers: body.headers,
      });
      const visitor = up.cookies.find((c) => c.name === VISITOR_COOKIE);
      const anonCookie = `${VISITOR_COOKIE}=${visitor?.value}`;
      const memory = (
        await short.app.inject({
          method: "POST",
          url: "/api/memories/process",
          payload: { audioUrl: up.json<{ url: string }>().url },
          headers: { cookie: anonCookie },
        })
      ).json<Memory>();
      await new Promise((r) => setTimeout(r, 100));
      const user = await createUserWithSession(short);
      const response = await short.app.inject({
        method: "POST",
        url: `/api/memories/${memory.id}/claim`,
        headers: { cookie: cookies(user.cookie, anonCookie) },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(refusal("memory.claim_expired"));
    } finally {
      await short.cleanup();
    }
  });

  it("refuses audio that is not the caller's upload, a missing field, and a second memory of one recording", async () => {
    const user = await createUserWithSession(t);
    const other = await upload();
    const notMine = await process(user.cookie, other.url);
    expect(notMine.statusCode).toBe(400);
    expect(notMine.json()).toEqual(refusal("audio.not_yours"));
    expect((await process(user.cookie, "https://evil.example/x.mp3")).statusCode).toBe(400);
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: {},
      headers: { cookie: user.cookie },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: "invalid_value", field: "body.audioUrl" });
    const bad = await process(user.cookie, "/api/audio/x", "yesterday");
    expect(bad.json()).toMatchObject({ code: "invalid_value", field: "body.recordedAt" });

    const mine = await upload(user.cookie);
    const first = await process(user.cookie, mine.url);
    expect(first.statusCode).toBe(201);
    // Sent again by the same owner (a lost answer): the same memory, nothing new queued.
    const twice = await process(user.cookie, mine.url);
    expect(twice.statusCode).toBe(200);
    expect(twice.json<Memory>().id).toBe(first.json<Memory>().id);
    // Another account that somehow has the URL: refused.
    const thief = await createUserWithSession(t);
    const stolen = await process(cookies(thief.cookie), mine.url);
    expect(stolen.statusCode).toBe(400);
    await t.app.worker.drain();
  });

  it("retries a failed memory from its failed stage, for the owner only", async () => {
    const user = await createUserWithSession(t);
    const mine = await upload(user.cookie);
    stub.handle((request) =>
      request.path.endsWith("/chat/completions") && request.json?.response_format === undefined
        ? { status: 500, body: { error: { message: "summary service down" } } }
        : defaultStubHandler(request),
    );
    const memory = (await process(user.cookie, mine.url)).json<Memory>();
    await t.app.worker.drain();
    const failed = (await get(memory.id, user.cookie)).json<Memory>();
    expect(failed).toMatchObject({ status: "failed", stage: "summarize" });
    // The provider's own text goes to the log, not to the memory.
    expect(failed.error).toBe("summarize.failed");

    const stranger = await createUserWithSession(t);
    expect((await post(`/api/memories/${memory.id}/retry`, stranger.cookie)).statusCode).toBe(404);
    expect((await post(`/api/memories/${memory.id}/retry`)).statusCode).toBe(404);

    stub.handle(defaultStubHandler);
    const retried = await post(`/api/memories/${memory.id}/retry`, user.cookie);
    expect(retried.statusCode).toBe(200);
    expect(retried.json<Memory>()).toMatchObject({
      status: "processing",
      stage: "summarize",
      error: null,
    });
    await t.app.worker.drain();
    expect((await get(memory.id, user.cookie)).json<Memory>().status).toBe("saved");
    const notFailed = await post(`/api/memories/${memory.id}/retry`, user.cookie);
    expect(notFailed.statusCode).toBe(409);
    expect(notFailed.json()).toEqual(refusal("memory.only_failed_retry"));
  });

  it("creates a saved memory from a full body (POST /api/memories)", async () => {
    const user = await createUserWithSession(t);
    const mine = await upload(user.cookie);
    const body = {
      title: "Beach day",
      audioUrl: mine.url,
      transcript: "We went to the beach.",
      summary: "I loved our beach day.",
      scores: { overall: 9 },
      duration: 3.5,
      recordedAt: "2026-05-01T10:00:00.000Z",
      tags: ["beach", " beach ", "summer"],
    };
    expect(
      (await t.app.inject({ method: "POST", url: "/api/memories", payload: body })).statusCode,
    ).toBe(401);
    const invalid = await t.app.inject({
      method: "POST",
      url: "/api/memories",
      payload: { ...body, scores: { overall: 11 } },
      headers: { cookie: user.cookie },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: "invalid_value", field: "body.scores.overall" });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories",
      payload: body,
      headers: { cookie: user.cookie },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<Memory>()).toMatchObject({
      status: "saved",
      user_id: user.user.id,
      title: "Beach day",
      tags: ["beach", "summer"],
      scores: {
        meaningfulness: 5,
        cuteness: 5,
        excitement: 5,
        interest: 5,
        uniqueness: 5,
        overall: 9,
      },
      duration: 3.5,
    });
    const again = await t.app.inject({
      method: "POST",
      url: "/api/memories",
      payload: body,
      headers: { cookie: user.cookie },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: "audio.already_used",
      message: ERROR_MESSAGES["audio.already_used"],
    });
  });
});

describe("cost control", () => {
  it("caps anonymous recordings per visitor per day and rate limits processing", async () => {
    const t = await createTestApp({
      env: {
        WORKER_CONCURRENCY: "0",
        ANON_DAILY_RECORDINGS: "1",
        RATE_LIMIT_PROCESS_PER_HOUR: "2",
      },
      deps: { ai: openAi() },
    });
    try {
      const send = async (cookie?: string) => {
        const body = multipart(mp3);
        const up = await t.app.inject({
          method: "POST",
          url: "/api/upload",
          payload: body.payload,
          headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
        });
        const visitor = up.cookies.find((c) => c.name === VISITOR_COOKIE);
        const jar = cookie ?? `${VISITOR_COOKIE}=${visitor?.value}`;
        return {
          jar,
          response: await t.app.inject({
            method: "POST",
            url: "/api/memories/process",
            payload: { audioUrl: up.json<{ url: string }>().url },
            headers: { cookie: jar },
          }),
        };
      };
      const first = await send();
      expect(first.response.statusCode).toBe(201);
      const second = await send(first.jar);
      expect(second.response.statusCode).toBe(429);
      expect(second.response.json()).toEqual(refusal("memory.daily_limit"));
      // A logged-in user is not capped by the anonymous limit, but by the rate limit.
      const user = await createUserWithSession(t);
      expect((await send(user.cookie)).response.statusCode).toBe(201);
      expect((await send(user.cookie)).response.statusCode).toBe(201);
      const limited = await send(user.cookie);
      expect(limited.response.statusCode).toBe(429);
      expect(limited.response.json()).toEqual({
        code: "too_many_requests",
        message: MESSAGES.tooManyRequests,
      });
      await t.app.worker.drain();
    } finally {
      await t.cleanup();
    }
  });
});

describe("processing per address per day", () => {
  it("bounds one address however many visitor cookies and accounts it uses", async () => {
    const t = await createTestApp({
      env: {
        WORKER_CONCURRENCY: "0",
        ANON_DAILY_RECORDINGS: "50",
        RATE_LIMIT_PROCESS_PER_HOUR: "50",
        RATE_LIMIT_PROCESS_PER_DAY_PER_IP: "2",
      },
      deps: { ai: openAi() },
    });
    try {
      /** Uploads and processes from `ip`, as a brand-new visitor unless a cookie is given. */
      const send = async (ip: string, cookie?: string) => {
        const body = multipart(mp3);
        const up = await t.app.inject({
          method: "POST",
          url: "/api/upload",
          payload: body.payload,
          remoteAddress: ip,
          headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
        });
        expect(up.statusCode).toBe(201);
        const visitor = up.cookies.find((c) => c.name === VISITOR_COOKIE);
        return t.app.inject({
          method: "POST",
          url: "/api/memories/process",
          payload: { audioUrl: up.json<{ url: string }>().url },
          remoteAddress: ip,
          headers: { cookie: cookie ?? `${VISITOR_COOKIE}=${visitor?.value}` },
        });
      };
      expect((await send("198.51.100.1")).statusCode).toBe(201);
      expect((await send("198.51.100.1")).statusCode).toBe(201);
      // A third visitor cookie from the same address...
      const third = await send("198.51.100.1");
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({
        code: "too_many_requests",
        message: MESSAGES.tooManyRequests,
      });
      expect(Number(third.headers["retry-after"])).toBeGreaterThan(60 * 60);
      // ...or a fresh account from it gets no new allowance.
      const user = await createUserWithSession(t);
      expect((await send("198.51.100.1", user.cookie)).statusCode).toBe(429);
      // Another address is not affected.
      expect((await send("198.51.100.2", user.cookie)).statusCode).toBe(201);
      await t.app.worker.drain();
    } finally {
      await t.cleanup();
    }
  });
});

/** Whether `text` holds a C0 control character other than those in `allowed`. */
function hasControl(text: string, allowed = ""): boolean {
  return [...text].some((char) => char.charCodeAt(0) < 0x20 && !allowed.includes(char));
}
