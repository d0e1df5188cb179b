import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ERROR_MESSAGES, MESSAGES } from "../../shared/messages";
import { titleFromSummary } from "../../shared/rules";
import type { Memory } from "../../shared/schemas";
import type { AiProviders } from "../ai/ai";
import { LocalTextModel } from "../ai/providers/local-text-model";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import {
  chatReply,
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
} from "../test/openai-stub";
import { MemoriesRepo } from "./memories.repo";

let stub: OpenAiStub;

beforeAll(async () => {
  stub = await startOpenAiStub();
});
afterAll(async () => {
  await stub.close();
});

const MISHEARD = "Today we went to the beach with grandpa and you built a sand castle with Lucy.";
const CORRECTED = "Today we went to the beach with Grandpa and you built a sandcastle with Lucia.";

describe.each(DATABASE_KINDS)("POST /api/memories/{id}/regenerate (%s)", (kind) => {
  let t: TestApp;
  let repo: MemoriesRepo;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0", RATE_LIMIT_PROCESS_PER_HOUR: "50" },
      deps: { ai: stubProviders(stub) },
    });
    repo = new MemoriesRepo(t.database.db, t.database.kind);
    owner = await createUserWithSession(t, { isPublic: true });
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => {
    stub.handle(defaultStubHandler);
    stub.requests.length = 0;
  });

  const saved = (userId: string, transcript = MISHEARD) =>
    repo.insert({
      userId,
      audioId: null,
      title: "Old title.",
      transcript,
      summary: "Old title. Old summary.",
      scores: { overall: 3 },
      tags: ["sand castle", "lucy", "owner tag"],
      status: "saved",
    });

  const regenerate = (id: string, cookie?: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/memories/${id}/regenerate`,
      headers: cookie ? { cookie } : {},
    });

  const get = async (id: string) =>
    (
      await t.app.inject({
        method: "GET",
        url: `/api/memories/${id}`,
        headers: { cookie: owner.cookie },
      })
    ).json<Memory>();

  it("makes summary, title, scores and tags again from the corrected transcript, from the summarize stage", async () => {
    const memory = await saved(owner.user.id);
    // The owner corrects the misheard names first (the edit dialog's save).
    const edit = await t.app.inject({
      method: "PUT",
      url: `/api/memories/${memory.id}`,
      headers: { cookie: owner.cookie },
      payload: {
        title: "Old title.",
        transcript: CORRECTED,
        summary: "Old title. Old summary.",
        recordedAt: memory.recorded_at,
        tags: ["sand castle", "lucy", "owner tag"],
      },
    });
    expect(edit.statusCode).toBe(200);

    const response = await regenerate(memory.id, owner.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json<Memory>()).toMatchObject({
      id: memory.id,
      status: "processing",
      stage: "summarize",
      error: null,
    });
    // A second request while it is processing changes nothing.
    const again = await regenerate(memory.id, owner.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: "memory.already_processing",
      message: MESSAGES.alreadyProcessing,
    });
    // The owner's edit waits too (ADR 0011).
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: `/api/memories/${memory.id}`,
          headers: { cookie: owner.cookie },
          payload: {
            title: "x",
            transcript: "x",
            summary: "x",
            recordedAt: memory.recorded_at,
            tags: [],
          },
        })
      ).statusCode,
    ).toBe(409);

    expect(await t.app.worker.drain()).toBe(1);
    const after = await get(memory.id);
    expect(after).toMatchObject({
      status: "saved",
      stage: null,
      transcript: CORRECTED,
      summary:
        "I will always remember our day at the beach with Grandpa. You built the best sandcastle, my love.",
      title: "I will always remember our day at the beach with Grandpa.",
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    expect(after.scores.overall).toBe(7);
    // Only the text steps ran, each on the corrected transcript; the audio was not transcribed again.
    expect(stub.requests.map((r) => r.path)).toEqual([
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/v1/chat/completions",
    ]);
    for (const request of stub.requests) {
      expect(JSON.stringify(request.json?.messages)).toContain("Lucia");
      expect(JSON.stringify(request.json?.messages)).not.toContain("Lucy");
    }
  });

  it("regenerates a failed memory too, and a failure is recorded at its stage", async () => {
    const memory = await saved(owner.user.id);
    stub.handle((request) =>
      request.json?.response_format === undefined ? chatReply(null) : defaultStubHandler(request),
    );
    expect((await regenerate(memory.id, owner.cookie)).statusCode).toBe(200);
    await t.app.worker.drain();
    const failed = await get(memory.id);
    expect(failed).toMatchObject({
      status: "failed",
      stage: "summarize",
      error: "summarize.failed",
      // What was there before is kept.
      summary: "Old title. Old summary.",
      transcript: MISHEARD,
    });
    stub.handle(defaultStubHandler);
    expect((await regenerate(memory.id, owner.cookie)).statusCode).toBe(200);
    await t.app.worker.drain();
    expect((await get(memory.id)).status).toBe("saved");
  });

  it("refuses a memory without a transcript with 400 and changes nothing", async () => {
    const memory = await saved(owner.user.id, "   ");
    const response = await regenerate(memory.id, owner.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "memory.no_transcript",
      message: ERROR_MESSAGES["memory.no_transcript"],
    });
    expect(await repo.findById(memory.id)).toMatchObject({ status: "saved", title: "Old title." });
    expect(await t.app.worker.drain()).toBe(0);
  });

  it("is the owner's alone: 401 logged out, 403 on a public profile, 404 on a private one or unknown", async () => {
    const privateOwner = await createUserWithSession(t, { isPublic: false });
    const stranger = await createUserWithSession(t);
    const publicMemory = await saved(owner.user.id);
    const privateMemory = await saved(privateOwner.user.id);

    expect((await regenerate(publicMemory.id)).statusCode).toBe(401);
    const forbidden = await regenerate(publicMemory.id, stranger.cookie);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toHaveProperty("message");
    expect((await regenerate(privateMemory.id, stranger.cookie)).statusCode).toBe(404);
    expect((await regenerate("no-such-memory", owner.cookie)).statusCode).toBe(404);
    for (const id of [publicMemory.id, privateMemory.id]) {
      expect((await repo.findById(id))?.status).toBe("saved");
    }
    expect(await t.app.worker.drain()).toBe(0);
  });
});

describe("regenerate with the local text model", () => {
  it("writes the new title, summary and tags in the corrected transcript's language", async () => {
    const stubbed = stubProviders(stub);
    const ai: AiProviders = {
      name: "local",
      transcriber: stubbed.transcriber,
      textModel: new LocalTextModel(),
    };
    const t = await createTestApp({ env: { WORKER_CONCURRENCY: "0" }, deps: { ai } });
    try {
      const owner = await createUserWithSession(t);
      const repo = new MemoriesRepo(t.database.db, t.database.kind);
      const memory = await repo.insert({
        userId: owner.user.id,
        audioId: null,
        title: "Hoy die star to spas.",
        transcript: "hoy die star to spas en la cosina",
        summary: "Hoy die star to spas.",
        status: "saved",
      });
      await repo.update(memory.id, {
        title: "Hoy die star to spas.",
        transcript:
          "Esta mañana diste tus primeros pasos en la cocina. Te soltaste de la silla y caminaste hasta los brazos de papá. Todos aplaudimos y tú te reíste muchísimo.",
        summary: "Hoy die star to spas.",
        recordedAt: memory.recorded_at,
        tags: [],
      });
      const response = await t.app.inject({
        method: "POST",
        url: `/api/memories/${memory.id}/regenerate`,
        headers: { cookie: owner.cookie },
      });
      expect(response.statusCode).toBe(200);
      await t.app.worker.drain();
      const after = (
        await t.app.inject({
          method: "GET",
          url: `/api/memories/${memory.id}`,
          headers: { cookie: owner.cookie },
        })
      ).json<Memory>();
      expect(after.status).toBe("saved");
      expect(after.title).toBe("Diste tus primeros pasos en la cocina.");
      expect(titleFromSummary(after.summary)).toBe(after.title);
      expect(after.summary).toMatch(/te quiero/i);
      expect(after.tags).toContain("primeros pasos");
    } finally {
      await t.cleanup();
    }
  });
});

describe("regenerate cost control", () => {
  it("is rate limited like processing", async () => {
    const t = await createTestApp({
      env: { WORKER_CONCURRENCY: "0", RATE_LIMIT_PROCESS_PER_HOUR: "2" },
      deps: { ai: stubProviders(stub) },
    });
    try {
      const owner = await createUserWithSession(t);
      const repo = new MemoriesRepo(t.database.db, t.database.kind);
      const send = async () => {
        const memory = await repo.insert({
          userId: owner.user.id,
          audioId: null,
          transcript: MISHEARD,
          status: "saved",
        });
        return t.app.inject({
          method: "POST",
          url: `/api/memories/${memory.id}/regenerate`,
          headers: { cookie: owner.cookie },
        });
      };
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      const limited = await send();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        code: "too_many_requests",
        message: MESSAGES.tooManyRequests,
      });
      await t.app.worker.drain();
    } finally {
      await t.cleanup();
    }
  });
});
