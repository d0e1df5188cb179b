import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Updateable } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import type { Memory } from "../../shared/schemas";
import type { TranscriptInfo } from "../../shared/transcript";
import type { AudioInput, CallOptions, Transcriber, TranscriptionResult } from "../ai/ai";
import { type LocalSpeechConfig, LocalTranscriber } from "../ai/ai-factory";
import type { MemoriesTable } from "../db/schema";
import { speechMp3 } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, makeTempDir, type TestApp } from "../test/harness";
import {
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
  transcriptionReply,
} from "../test/openai-stub";
import { upload } from "../test/upload-helpers";

let stub: OpenAiStub;
let mp3: Buffer;

beforeAll(async () => {
  stub = await startOpenAiStub();
  mp3 = await speechMp3("We planted a cherry tree and you carried the watering can.");
});
afterAll(async () => {
  await stub.close();
});

const ROUGH = "we planted a cherry tree and you carry the water in can";
const BETTER = "We planted a cherry tree and you carried the watering can.";

/** A saved memory of `owner`'s that the stub transcribed as ROUGH, its row then given `changes`. */
async function roughMemory(
  t: TestApp,
  owner: TestUser,
  changes: Updateable<MemoriesTable>,
): Promise<Memory> {
  stub.handle((request) =>
    request.path.endsWith("/audio/transcriptions")
      ? transcriptionReply(request, ROUGH, 2)
      : defaultStubHandler(request),
  );
  const uploaded = await upload(t, mp3, {
    cookie: owner.cookie,
    filename: "a.mp3",
    type: "audio/mpeg",
  });
  const created = await t.app.inject({
    method: "POST",
    url: "/api/memories/process",
    payload: { audioUrl: uploaded.json<{ url: string }>().url },
    headers: { cookie: owner.cookie },
  });
  const memory = created.json<Memory>();
  expect(await t.app.worker.drain()).toBe(1);
  await t.database.db.updateTable("memories").set(changes).where("id", "=", memory.id).execute();
  stub.handle(defaultStubHandler);
  return memory;
}

describe.each(DATABASE_KINDS)("transcribing the fallback's memories again (%s)", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let relative: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0" },
      deps: { ai: stubProviders(stub) },
    });
    owner = await createUserWithSession(t, { isPublic: true });
    relative = await createUserWithSession(t);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => {
    stub.handle(defaultStubHandler);
  });

  /** A saved memory as the pocketsphinx fallback made it (the stub stands in for it). */
  const fallbackMemory = () => roughMemory(t, owner, { transcript_engine: "pocketsphinx" });

  const inject = (method: "GET" | "POST" | "PUT", url: string, cookie?: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const info = async (id: string, cookie = owner.cookie) =>
    (await inject("GET", `/api/memories/${id}/transcript`, cookie)).json<TranscriptInfo>();
  const count = async () =>
    (await inject("GET", "/api/memories/retranscribe", owner.cookie)).json<{ count: number }>()
      .count;

  it("offers the owner a better transcription and runs the pipeline again from transcription", async () => {
    const memory = await fallbackMemory();
    expect(await info(memory.id)).toMatchObject({ engine: "pocketsphinx", retranscribe: true });
    // A relative who can see it is not offered anything.
    expect((await info(memory.id, relative.cookie)).retranscribe).toBe(false);
    expect(
      (await inject("POST", `/api/memories/${memory.id}/retranscribe`, relative.cookie)).statusCode,
    ).toBe(403);
    expect((await inject("POST", `/api/memories/${memory.id}/retranscribe`)).statusCode).toBe(401);

    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? transcriptionReply(request, BETTER, 2)
        : defaultStubHandler(request),
    );
    const started = await inject("POST", `/api/memories/${memory.id}/retranscribe`, owner.cookie);
    expect(started.statusCode).toBe(200);
    expect(started.json<Memory>()).toMatchObject({ status: "processing", stage: "transcribe" });
    // Twice at once: the second finds it processing.
    expect(
      (await inject("POST", `/api/memories/${memory.id}/retranscribe`, owner.cookie)).statusCode,
    ).toBe(409);
    expect(await t.app.worker.drain()).toBe(1);

    const after = (await inject("GET", `/api/memories/${memory.id}`, owner.cookie)).json<Memory>();
    expect(after).toMatchObject({ status: "saved", transcript: BETTER });
    expect(await info(memory.id)).toMatchObject({ engine: "whisper-1", retranscribe: false });
    const bad = await inject("POST", `/api/memories/${memory.id}/retranscribe`, owner.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe(MESSAGES.noBetterTranscript);
  });

  /** The owner's own words in place of the transcript (their edit); answers the memory. */
  async function edit(memory: Memory, transcript: string, title?: string): Promise<Memory> {
    const current = (
      await inject("GET", `/api/memories/${memory.id}`, owner.cookie)
    ).json<Memory>();
    const put = await inject("PUT", `/api/memories/${memory.id}`, owner.cookie, {
      title: title ?? current.title,
      transcript,
      summary: current.summary,
      recordedAt: current.recordedAt,
      tags: current.tags,
    });
    expect(put.statusCode).toBe(200);
    return put.json<Memory>();
  }

  const MINE = "We planted the cherry tree, and you, my darling, carried the can.";

  it("keeps a transcript the owner edited and offers the new one beside it, once", async () => {
    const edited = await fallbackMemory();
    const untouched = await fallbackMemory();
    const before = await edit(edited, MINE, "Our cherry tree");
    expect(await info(edited.id)).toMatchObject({
      edited: true,
      retranscribe: true,
      proposal: null,
    });
    expect(await count()).toBe(2);

    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? transcriptionReply(request, BETTER, 2)
        : defaultStubHandler(request),
    );
    const all = await inject("POST", "/api/memories/retranscribe", owner.cookie);
    expect(all.json()).toEqual({ count: 2 });
    expect(await t.app.worker.drain()).toBe(2);
    // The owner's words, title and summary are all kept; the new transcription waits beside them.
    const kept = (await inject("GET", `/api/memories/${edited.id}`, owner.cookie)).json<Memory>();
    expect(kept).toMatchObject({
      status: "saved",
      transcript: MINE,
      title: "Our cherry tree",
      summary: before.summary,
    });
    const offered = await info(edited.id);
    expect(offered).toMatchObject({ edited: true, engine: "pocketsphinx", retranscribe: false });
    expect(offered.proposal).toMatchObject({ transcript: BETTER, engine: "whisper-1" });
    expect(offered.proposal?.segments.map((s) => s.text).join(" ")).toBe(BETTER);
    // Only the owner sees it.
    expect((await info(edited.id, relative.cookie)).proposal).toBeNull();
    expect((await info(untouched.id)).engine).toBe("whisper-1");
    expect(await count()).toBe(0);

    for (const action of ["accept", "dismiss"]) {
      const url = `/api/memories/${edited.id}/proposed-transcript/${action}`;
      expect((await inject("POST", url, relative.cookie)).statusCode).toBe(403);
      expect((await inject("POST", url)).statusCode).toBe(401);
      expect(
        (await inject("POST", `/api/memories/nope/proposed-transcript/${action}`, owner.cookie))
          .statusCode,
      ).toBe(404);
    }
    expect((await info(edited.id)).proposal).not.toBeNull();

    // The owner keeps theirs: the offer goes and is not made again.
    const dismissed = await inject(
      "POST",
      `/api/memories/${edited.id}/proposed-transcript/dismiss`,
      owner.cookie,
    );
    expect(dismissed.statusCode).toBe(204);
    expect(await info(edited.id)).toMatchObject({
      edited: true,
      retranscribe: false,
      proposal: null,
    });
    expect(
      (await inject("GET", `/api/memories/${edited.id}`, owner.cookie)).json<Memory>().transcript,
    ).toBe(MINE);
    for (const action of ["accept", "dismiss"]) {
      const again = await inject(
        "POST",
        `/api/memories/${edited.id}/proposed-transcript/${action}`,
        owner.cookie,
      );
      expect(again.statusCode).toBe(409);
      expect(again.json<{ message: string }>().message).toBe(MESSAGES.noProposedTranscript);
    }
    const refused = await inject("POST", `/api/memories/${edited.id}/retranscribe`, owner.cookie);
    expect(refused.statusCode).toBe(400);
    expect(await count()).toBe(0);
    expect((await inject("GET", "/api/memories/retranscribe")).statusCode).toBe(401);
  });

  it("lets the owner take the new transcription instead, with its times and engine", async () => {
    const memory = await fallbackMemory();
    await edit(memory, MINE, "Our cherry tree");
    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? transcriptionReply(request, BETTER, 2)
        : defaultStubHandler(request),
    );
    const started = await inject("POST", `/api/memories/${memory.id}/retranscribe`, owner.cookie);
    expect(started.json<Memory>()).toMatchObject({ status: "processing", stage: "transcribe" });
    // While it is processing, nothing can be taken.
    const early = await inject(
      "POST",
      `/api/memories/${memory.id}/proposed-transcript/accept`,
      owner.cookie,
    );
    expect(early.statusCode).toBe(409);
    expect(early.json<{ message: string }>().message).toBe(MESSAGES.alreadyProcessing);
    expect(await t.app.worker.drain()).toBe(1);

    const search = async (q: string) =>
      (await inject("GET", `/api/memories/search?q=${q}`, owner.cookie))
        .json<{ items: Memory[] }>()
        .items.map((m) => m.id);
    expect(await search("darling")).toContain(memory.id);
    const taken = await inject(
      "POST",
      `/api/memories/${memory.id}/proposed-transcript/accept`,
      owner.cookie,
    );
    expect(taken.statusCode).toBe(200);
    // The machine's text is no longer an edit; the owner's title stays until they regenerate.
    expect(taken.json<Memory>()).toMatchObject({
      status: "saved",
      transcript: BETTER,
      title: "Our cherry tree",
    });
    const now = await info(memory.id);
    expect(now).toMatchObject({
      engine: "whisper-1",
      edited: false,
      retranscribe: false,
      proposal: null,
    });
    expect(now.segments).toEqual([
      { start: 0, end: 1, text: "We planted a cherry tree" },
      { start: 1, end: 2, text: "and you carried the watering can." },
    ]);
    const vtt = await inject("GET", `/api/memories/${memory.id}/captions.vtt`, owner.cookie);
    expect(vtt.body).toContain("00:00:01.000 --> 00:00:02.000\nand you carried the watering can.");
    // Found by the new words, no longer by the edit's.
    expect(await search("watering")).toContain(memory.id);
    expect(await search("darling")).not.toContain(memory.id);
  });

  it("refuses, in the database, an offer beside a transcript the owner did not edit", async () => {
    const memory = await fallbackMemory();
    await expect(
      t.database.db
        .updateTable("memories")
        .set({ proposed_transcript: BETTER, proposed_engine: "whisper-1" })
        .where("id", "=", memory.id)
        .execute(),
    ).rejects.toThrow();
    await edit(memory, MINE);
    await expect(
      t.database.db
        .updateTable("memories")
        .set({ proposed_transcript: BETTER })
        .where("id", "=", memory.id)
        .execute(),
    ).rejects.toThrow();
    // As if offered and kept: not offered again, so the next tests count from nothing.
    await t.database.db
      .updateTable("memories")
      .set({ proposed_engine: "whisper-1" })
      .where("id", "=", memory.id)
      .execute();
  });

  it("does not offer a server's transcription of memories made before engines were recorded", async () => {
    const memory = await fallbackMemory();
    await t.database.db
      .updateTable("memories")
      .set({ transcript_engine: null })
      .where("id", "=", memory.id)
      .execute();
    expect(await info(memory.id)).toMatchObject({ engine: null, retranscribe: false });
    const refused = await inject("POST", `/api/memories/${memory.id}/retranscribe`, owner.cookie);
    expect(refused.statusCode).toBe(400);
    expect(await count()).toBe(0);
  });
});

/**
 * The local provider as it runs: Whisper counts as there once its model file is (checked by the
 * real `hasWhisper`); the speech itself comes from the stub, standing in for whisper.cpp.
 */
class StubbedWhisper extends LocalTranscriber {
  constructor(
    config: LocalSpeechConfig,
    private readonly speech: Transcriber,
  ) {
    super(config);
  }
  override transcribe(audio: AudioInput, options?: CallOptions): Promise<TranscriptionResult> {
    return this.speech.transcribe(audio, options);
  }
}

describe.each(DATABASE_KINDS)("memories transcribed before engines were recorded (%s)", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let modelDir: string;
  let model: string;

  beforeAll(async () => {
    modelDir = await makeTempDir("vmj-unknown-engine-");
    model = path.join(modelDir, "ggml-base.bin");
    const server = stubProviders(stub);
    t = await createTestApp({
      kind,
      env: { WORKER_CONCURRENCY: "0" },
      deps: {
        ai: {
          name: "local",
          transcriber: new StubbedWhisper(
            {
              POCKETSPHINX_BIN: "pocketsphinx_continuous",
              WHISPER_MODEL: model,
              WHISPER_THREADS: 1,
              WHISPER_TIMEOUT_MS: 60_000,
              dataDir: modelDir,
            },
            server.transcriber,
          ),
          textModel: server.textModel,
        },
      },
    });
    owner = await createUserWithSession(t);
  });
  afterAll(async () => {
    await t.cleanup();
    await rm(modelDir, { recursive: true, force: true });
  });

  /** A saved memory as versions before engines were recorded left it (no engine). */
  const unknownMemory = (transcript = ROUGH) =>
    roughMemory(t, owner, { transcript_engine: null, transcript_segments: null, transcript });
  const get = async <T>(url: string) =>
    (await t.app.inject({ method: "GET", url, headers: { cookie: owner.cookie } })).json<T>();

  it("offers them with Whisper there, unless the owner edited them or they have no transcript", async () => {
    const unknown = await unknownMemory();
    const empty = await unknownMemory("");
    const edited = await unknownMemory();
    await t.database.db
      .updateTable("memories")
      .set({ transcript_edited: 1 })
      .where("id", "=", edited.id)
      .execute();
    // No model yet: the fallback would make them no better.
    expect((await get<TranscriptInfo>(`/api/memories/${unknown.id}/transcript`)).retranscribe).toBe(
      false,
    );
    // The Account page tells the owner the speech model is missing.
    expect(await get<{ count: number }>("/api/memories/retranscribe")).toEqual({
      count: 0,
      speechModelMissing: true,
    });

    await writeFile(model, "a model");
    for (const [memory, offered] of [
      [unknown, true],
      [empty, false],
      [edited, false],
    ] as const) {
      const info = await get<TranscriptInfo>(`/api/memories/${memory.id}/transcript`);
      expect(info).toMatchObject({ engine: null, retranscribe: offered });
    }
    expect(await get<{ count: number }>("/api/memories/retranscribe")).toEqual({
      count: 1,
      speechModelMissing: false,
    });

    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? transcriptionReply(request, BETTER, 2)
        : defaultStubHandler(request),
    );
    const all = await t.app.inject({
      method: "POST",
      url: "/api/memories/retranscribe",
      headers: { cookie: owner.cookie },
    });
    expect(all.json()).toEqual({ count: 1 });
    expect(await t.app.worker.drain()).toBe(1);
    expect(await get<Memory>(`/api/memories/${unknown.id}`)).toMatchObject({
      status: "saved",
      transcript: BETTER,
    });
    expect(await get<TranscriptInfo>(`/api/memories/${unknown.id}/transcript`)).toMatchObject({
      engine: "whisper-1",
      retranscribe: false,
    });
    expect(await get<{ count: number }>("/api/memories/retranscribe")).toMatchObject({ count: 0 });
  });
});
