import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speechMp3 } from "../src/server/test/audio-fixtures";
import {
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
} from "../src/server/test/openai-stub";
import type { Memory } from "../src/shared/schemas";
import { type RunningServer, startServer } from "./harness";

/** Processing interrupted by a crash (SIGKILL mid-stage) resumes when the server starts again. */
describe("a crash mid-processing", () => {
  let stub: OpenAiStub;
  let server: RunningServer | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    stub = await startOpenAiStub();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await stub.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("resumes after a restart, with nothing lost", async () => {
    const env = {
      AI_PROVIDER: "openai",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: stub.baseURL,
      OPENAI_MAX_RETRIES: "0",
      JOB_LEASE_MS: "1000",
    };
    // The transcription provider is slow, so the server is killed while it waits on it.
    stub.handle((request) =>
      request.path.endsWith("/audio/transcriptions")
        ? { delayMs: 60_000, body: { text: "too late" } }
        : defaultStubHandler(request),
    );
    server = await startServer(env);
    dataDir = server.dataDir;

    const mp3 = await speechMp3("We went to the beach with grandpa.");
    const form = new FormData();
    form.append("audio", new Blob([new Uint8Array(mp3)], { type: "audio/mpeg" }), "memory.mp3");
    const uploaded = await fetch(`${server.url}/api/upload`, { method: "POST", body: form });
    expect(uploaded.status).toBe(201);
    const cookie = (uploaded.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const { url } = (await uploaded.json()) as { url: string };
    const started = await fetch(`${server.url}/api/memories/process`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ audioUrl: url }),
    });
    expect(started.status).toBe(201);
    const memory = (await started.json()) as Memory;

    // Wait until the worker is inside the transcribe stage, then kill the process outright.
    const deadline = Date.now() + 20_000;
    while (!stub.requests.some((r) => r.path.endsWith("/audio/transcriptions"))) {
      if (Date.now() > deadline)
        throw new Error(`no transcription request: ${server.logs.join("")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await server.stop("SIGKILL");

    stub.handle(defaultStubHandler);
    server = await startServer(env, { dataDir, port: server.port });
    const poll = async (): Promise<Memory> => {
      const response = await fetch(`${server?.url}/api/memories/${memory.id}`, {
        headers: { cookie },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Memory;
    };
    // The killed worker's lease (1 s here) may already have run out while the server started.
    let current = await poll();
    const finish = Date.now() + 30_000;
    while (current.status === "processing" && Date.now() < finish) {
      await new Promise((r) => setTimeout(r, 200));
      current = await poll();
    }
    expect(current).toMatchObject({
      status: "saved",
      error: null,
      audioUrl: url,
      transcript: "Today we went to the beach with Grandpa and you built a sandcastle.",
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    expect(current.duration).toBe(mp3.length / 16000);
    const audio = await fetch(`${server.url}${url}`, { headers: { cookie } });
    expect(Buffer.from(await audio.arrayBuffer()).equals(mp3)).toBe(true);
    // Transcribed twice (the killed attempt and the resumed one), everything else once.
    expect(stub.requests.filter((r) => r.path.endsWith("/audio/transcriptions"))).toHaveLength(2);
    expect(stub.requests.filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(3);
  });
});
