import { createHash } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Memory } from "../../../shared/schemas";
import type { TranscriptInfo } from "../../../shared/transcript";
import { MemoriesRepo } from "../../memories/memories.repo";
import { speechMp3 } from "../../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../../test/auth-helpers";
import { createTestApp, makeTempDir, type TestApp } from "../../test/harness";
import { multipart, upload, visitorCookie } from "../../test/upload-helpers";
import { testModelBytes } from "../../test/whisper-model";
import { LocalTextModel } from "../providers/local-text-model";
import { WhisperTranscriber } from "./whisper-transcriber";

// The local provider with a Whisper model present, end to end over real HTTP: upload, process,
// the engine runs in its own process on a generated model (random weights: its words are noise
// and are not asserted), and the memory is saved with the language Whisper detected.
describe("a recording processed by the local provider with a Whisper model", () => {
  let modelDir: string;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    modelDir = await makeTempDir("vmj-model-");
    const model = path.join(modelDir, "ggml-test.bin");
    await writeFile(model, testModelBytes());
    t = await createTestApp({
      env: {
        AI_PROVIDER: "local",
        WHISPER_MODEL: model,
        WHISPER_THREADS: "1",
        WORKER_CONCURRENCY: "0",
      },
    });
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t.cleanup();
    await rm(modelDir, { recursive: true, force: true });
  });

  it("uploads, transcribes with Whisper and saves the memory with its language", async () => {
    const body = multipart(
      await speechMp3("You took your first steps today, all the way to the sofa."),
    );
    const uploaded = await fetch(`${base}/api/upload`, {
      method: "POST",
      body: new Uint8Array(body.payload),
      headers: { ...body.headers, origin: base },
    });
    expect(uploaded.status).toBe(201);
    const cookie = visitorCookie({
      cookies: uploaded.headers.getSetCookie().map((line) => {
        const [pair = ""] = line.split(";");
        const [name = "", value = ""] = pair.split("=");
        return { name, value };
      }),
    });
    const { url } = (await uploaded.json()) as { url: string };
    const created = await fetch(`${base}/api/memories/process`, {
      method: "POST",
      body: JSON.stringify({ audioUrl: url }),
      headers: { cookie, "content-type": "application/json", origin: base },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as Memory;

    expect(await t.app.worker.drain()).toBe(1);
    const memory = (await (
      await fetch(`${base}/api/memories/${id}`, { headers: { cookie } })
    ).json()) as Memory;
    expect(memory.status).toBe("saved");
    expect(memory.transcript.length).toBeGreaterThan(0);
    const row = await new MemoriesRepo(t.database.db, t.database.kind).findById(id);
    expect(row?.language).toMatch(/^[a-z]{2,3}$/);
  }, 180_000);
});

describe("a Whisper engine that dies while transcribing", () => {
  let modelDir: string;
  let t: TestApp;

  beforeAll(async () => {
    modelDir = await makeTempDir("vmj-model-");
    const model = path.join(modelDir, "ggml-test.bin");
    await writeFile(model, testModelBytes());
    // The engine is killed as soon as it starts, as the kernel's OOM killer or a native crash would.
    const transcriber = new WhisperTranscriber({
      model,
      threads: 1,
      timeoutMs: 60_000,
      onEngineStart: (pid) => process.kill(pid, "SIGKILL"),
    });
    t = await createTestApp({
      env: { WORKER_CONCURRENCY: "0" },
      deps: { ai: { name: "local", transcriber, textModel: new LocalTextModel() } },
    });
  });
  afterAll(async () => {
    await t.cleanup();
    await rm(modelDir, { recursive: true, force: true });
  });

  it("fails that memory with a product message, keeps its audio, and the server carries on", async () => {
    const body = multipart(await speechMp3("We planted a tree in the garden."));
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/api/upload",
      payload: body.payload,
      headers: body.headers,
    });
    expect(uploaded.statusCode).toBe(201);
    const cookie = visitorCookie(uploaded);
    const { url } = uploaded.json<{ url: string }>();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: { audioUrl: url },
      headers: { cookie },
    });
    const { id } = created.json<Memory>();
    await t.app.worker.drain();
    const memory = (
      await t.app.inject({ method: "GET", url: `/api/memories/${id}`, headers: { cookie } })
    ).json<Memory>();
    expect(memory).toMatchObject({
      status: "failed",
      stage: "transcribe",
      error: "transcribe.failed",
    });
    expect((await t.app.inject({ method: "GET", url, headers: { cookie } })).statusCode).toBe(200);
  }, 120_000);
});

// A first start as the README has it: no model yet, so the fallback transcribes; the model is
// fetched from the (local) model host and checked against the pin the test supplies; the next
// recording is transcribed by Whisper, and the fallback's memory is offered a better transcription.
describe("a first start without a Whisper model", () => {
  let t: TestApp;
  let server: Server;
  let owner: TestUser;

  beforeAll(async () => {
    const model = testModelBytes();
    server = createServer((_, response) => {
      response.writeHead(200, { "content-length": model.length });
      response.end(model);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    t = await createTestApp({
      env: {
        AI_PROVIDER: "local",
        WHISPER_MODEL: "tiny",
        WHISPER_THREADS: "1",
        WHISPER_MODEL_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        WORKER_CONCURRENCY: "0",
      },
      deps: {
        whisperPin: {
          file: "ggml-tiny.bin",
          bytes: model.length,
          sha256: createHash("sha256").update(model).digest("hex"),
          sha1: createHash("sha1").update(model).digest("hex"),
        },
      },
    });
    owner = await createUserWithSession(t);
  });
  afterAll(async () => {
    await t.cleanup();
    await new Promise((resolve) => server.close(resolve));
  });

  async function record(text: string): Promise<string> {
    const uploaded = await upload(t, await speechMp3(text), {
      cookie: owner.cookie,
      filename: "story.mp3",
      type: "audio/mpeg",
    });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/memories/process",
      payload: { audioUrl: uploaded.json<{ url: string }>().url },
      headers: { cookie: owner.cookie },
    });
    expect(await t.app.worker.drain()).toBe(1);
    return created.json<Memory>().id;
  }
  const transcript = async (id: string) =>
    (
      await t.app.inject({
        method: "GET",
        url: `/api/memories/${id}/transcript`,
        headers: { cookie: owner.cookie },
      })
    ).json<TranscriptInfo>();

  it("transcribes with the fallback, fetches the model, then transcribes with Whisper", async () => {
    const early = await record("We went to the market and bought red apples.");
    expect(await transcript(early)).toMatchObject({ engine: "pocketsphinx", retranscribe: false });

    expect(await t.services.modelFetcher?.runOnce(new Date())).toBe("downloaded");

    const later = await record("You laughed when the dog ran after the ball.");
    expect((await transcript(later)).engine).toBe("whisper.cpp ggml-tiny.bin");
    expect((await transcript(early)).retranscribe).toBe(true);

    const again = await t.app.inject({
      method: "POST",
      url: `/api/memories/${early}/retranscribe`,
      headers: { cookie: owner.cookie },
    });
    expect(again.statusCode).toBe(200);
    expect(await t.app.worker.drain()).toBe(1);
    expect(await transcript(early)).toMatchObject({
      engine: "whisper.cpp ggml-tiny.bin",
      retranscribe: false,
    });
  }, 300_000);
});
