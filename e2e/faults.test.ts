import { afterEach, describe, expect, it } from "vitest";
import {
  chatReply,
  defaultStubHandler,
  type StubHandler,
  startOpenAiStub,
} from "../src/server/test/openai-stub";
import type { Memory } from "../src/shared/schemas";
import { ApiClient, serverFixture } from "./api-client";
import { startServer } from "./harness";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWith(handler: StubHandler, env: Record<string, string> = {}) {
  const stub = await startOpenAiStub(handler);
  cleanups.push(() => stub.close());
  const server = await startServer({
    AI_PROVIDER: "openai",
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: stub.baseURL,
    RATE_LIMIT_UPLOAD_PER_HOUR: "10000",
    RATE_LIMIT_PROCESS_PER_HOUR: "10000",
    ...env,
  });
  cleanups.push(() => server.cleanup());
  return { stub, server };
}

/** Uploads `count` recordings as `client` and starts processing each; returns the memory ids. */
async function recordMany(client: ApiClient, count: number): Promise<string[]> {
  const mp3 = await serverFixture("tone.mp3");
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const upload = await client.upload(mp3);
    expect(upload.status).toBe(201);
    const { url } = (await upload.json()) as { url: string };
    const { status, data } = await client.json<Memory>("POST", "/api/memories/process", {
      audioUrl: url,
    });
    expect(status).toBe(201);
    ids.push(data.id);
  }
  return ids;
}

/** Waits until none of the memories is processing; returns them. */
async function settle(client: ApiClient, ids: string[], timeoutMs = 90_000): Promise<Memory[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const memories = await Promise.all(
      ids.map(async (id) => (await client.json<Memory>("GET", `/api/memories/${id}`)).data),
    );
    if (memories.every((m) => m.status !== "processing")) return memories;
    if (Date.now() > deadline) {
      throw new Error(
        `still processing: ${memories.filter((m) => m.status === "processing").length}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("faults", () => {
  it("finishes all 20 memories, with their audio, after the server is killed mid-processing", async () => {
    const slow: StubHandler = async (request) => ({
      ...(await defaultStubHandler(request)),
      delayMs: 300,
    });
    const { stub, server } = await startWith(slow, {
      WORKER_CONCURRENCY: "2",
      JOB_LEASE_MS: "1500",
    });
    const client = new ApiClient(server.url);
    await client.register("crash_test_user");
    const ids = await recordMany(client, 20);
    // Let some work start, then pull the plug.
    await new Promise((r) => setTimeout(r, 1500));
    const atKill = await Promise.all(
      ids.map(async (id) => (await client.json<Memory>("GET", `/api/memories/${id}`)).data.status),
    );
    await server.stop("SIGKILL");
    // The kill must land mid-work for the test to mean anything.
    expect(atKill.filter((status) => status === "processing").length).toBeGreaterThan(1);
    const before = await Promise.all(ids.map(async (id) => id));
    expect(before).toHaveLength(20);

    stub.handle(defaultStubHandler);
    const restarted = await startServer(
      {
        AI_PROVIDER: "openai",
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: stub.baseURL,
        WORKER_CONCURRENCY: "2",
        JOB_LEASE_MS: "1500",
      },
      { dataDir: server.dataDir, port: server.port },
    );
    cleanups.push(() => restarted.stop());
    const memories = await settle(client, ids);
    expect(memories.map((m) => m.status)).toEqual(Array(20).fill("saved"));
    for (const memory of memories) {
      expect(memory.title.length).toBeGreaterThan(0);
      const audio = await client.request("GET", memory.audioUrl);
      expect(audio.status).toBe(200);
      expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it("stays responsive through provider timeouts, 500s, 429s, bad JSON and hangs; every memory ends saved or failed with audio", async () => {
    let call = 0;
    const faulty: StubHandler = async (request) => {
      call++;
      switch (call % 6) {
        case 0:
          return { status: 500, body: { error: { message: "boom" } } };
        case 1:
          return { status: 429, body: { error: { message: "slow down" } } };
        case 2:
          return request.path.endsWith("/audio/transcriptions")
            ? defaultStubHandler(request)
            : { raw: '{"choices":[{"message":{"content":"{\\"meaning' };
        case 3:
          return request.path.endsWith("/audio/transcriptions")
            ? defaultStubHandler(request)
            : chatReply("{not json at all");
        case 4:
          // Hangs far past the client's timeout.
          return { ...(await defaultStubHandler(request)), delayMs: 20_000 };
        default:
          return defaultStubHandler(request);
      }
    };
    const { server } = await startWith(faulty, {
      OPENAI_TIMEOUT_MS: "1000",
      OPENAI_MAX_RETRIES: "1",
      WORKER_CONCURRENCY: "2",
    });
    const client = new ApiClient(server.url);
    await client.register("fault_user");
    const ids = await recordMany(client, 8);

    // While the provider misbehaves, the app answers.
    for (let i = 0; i < 10; i++) {
      const health = await client.request("GET", "/api/health", undefined, { timeoutMs: 5000 });
      expect(health.status).toBe(200);
      const list = await client.request("GET", "/api/memories", undefined, { timeoutMs: 5000 });
      expect(list.status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
    }

    const memories = await settle(client, ids);
    for (const memory of memories) {
      expect(["saved", "failed"]).toContain(memory.status);
      if (memory.status === "failed") expect(memory.error).toBeTruthy();
      const audio = await client.request("GET", memory.audioUrl);
      expect(audio.status).toBe(200);
    }
    expect(server.logs.join("")).not.toMatch(/"level":(50|60)/);
  });
});
