import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Memory } from "../../../shared/schemas";
import { MemoriesRepo } from "../../memories/memories.repo";
import { speechMp3 } from "../../test/audio-fixtures";
import { createTestApp, makeTempDir, type TestApp } from "../../test/harness";
import { multipart, visitorCookie } from "../../test/upload-helpers";
import { testModelBytes } from "../../test/whisper-model";

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
