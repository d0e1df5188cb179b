import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { defaultStubHandler, startOpenAiStub } from "../src/server/test/openai-stub";
import { MESSAGES } from "../src/shared/messages";
import type { Memory, MemoryPage, RestoreResult } from "../src/shared/schemas";
import { ApiClient, serverFixture } from "./api-client";
import { type RunningServer, startServer } from "./harness";

// The bucket (s3rver in its own process) killed or paused with SIGSTOP under the built app. Short
// timeouts keep each hang to about a second; the defaults are 5 s to connect and 10 s idle.
const S3_TIMEOUTS = { S3_CONNECT_TIMEOUT_MS: "500", S3_REQUEST_TIMEOUT_MS: "1000" };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Bucket {
  env: Record<string, string>;
  kill(): Promise<void>;
  pause(): void;
  /** Back after kill (a new process on the same folder and port) or pause. */
  recover(): Promise<void>;
}

function spawnBucket(reuse: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "../bench/lib/s3rver-process.ts")],
    { env: { ...process.env, ...reuse }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const env = new Promise<Record<string, string>>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) =>
      resolve(JSON.parse(line) as Record<string, string>),
    );
    child.once("exit", (code) => reject(new Error(`s3rver process exited (${code})`)));
  });
  return { child, env };
}

async function startBucket(): Promise<Bucket> {
  let { child, env: ready } = spawnBucket();
  const env = await ready;
  const exited = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => process.once("exit", resolve));
  const bucket: Bucket = {
    env,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    pause() {
      child.kill("SIGSTOP");
    },
    async recover() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGCONT");
        return;
      }
      ({ child, env: ready } = spawnBucket({
        S3RVER_DIRECTORY: env.S3RVER_DIRECTORY as string,
        S3RVER_PORT: new URL(env.S3_ENDPOINT as string).port,
        S3RVER_BUCKET: /^s3:\/\/([^/]+)/.exec(env.STORAGE_URL as string)?.[1] as string,
      }));
      await ready;
    },
  };
  cleanups.push(async () => {
    child.kill("SIGKILL");
    await exited(child);
    await rm(env.S3RVER_DIRECTORY as string, { recursive: true, force: true });
  });
  return bucket;
}

async function startApp(bucket: Bucket): Promise<RunningServer> {
  const stub = await startOpenAiStub(defaultStubHandler);
  cleanups.push(() => stub.close());
  const { S3RVER_DIRECTORY: _folder, ...storageEnv } = bucket.env;
  const server = await startServer({
    ...storageEnv,
    ...S3_TIMEOUTS,
    AI_PROVIDER: "openai",
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: stub.baseURL,
    RATE_LIMIT_UPLOAD_PER_HOUR: "10000",
    RATE_LIMIT_PROCESS_PER_HOUR: "10000",
  });
  cleanups.push(() => server.cleanup());
  return server;
}

/** A valid MP3 of about `mb` megabytes (frames repeated), large enough to cut mid-transfer. */
async function largeMp3(mb: number): Promise<Buffer> {
  const frames = await serverFixture("tone-noid3.mp3");
  return Buffer.concat(Array(Math.ceil((mb * 1024 * 1024) / frames.length)).fill(frames));
}

async function uploadUrl(client: ApiClient, bytes: Buffer): Promise<string> {
  const res = await client.upload(bytes);
  expect(res.status).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

async function settle(client: ApiClient, id: string, timeoutMs = 30_000): Promise<Memory> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await client.json<Memory>("GET", `/api/memories/${id}`);
    if (data.status !== "processing") return data;
    if (Date.now() > deadline) throw new Error(`memory ${id} still processing`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function saveMemory(client: ApiClient, bytes: Buffer): Promise<Memory> {
  const audioUrl = await uploadUrl(client, bytes);
  const { status, data } = await client.json<Memory>("POST", "/api/memories/process", { audioUrl });
  expect(status).toBe(201);
  const memory = await settle(client, data.id);
  expect(memory.status).toBe("saved");
  return memory;
}

function restoreForm(zip: Buffer): FormData {
  const form = new FormData();
  form.append("backup", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "b.zip");
  return form;
}

/** Reads a response body to its end; rejects when the connection is cut. */
async function readAll(res: Response, afterFirstChunk?: () => Promise<void> | void) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    if (bytes === 0) await afterFirstChunk?.();
    bytes += value.length;
  }
}

const unreachable = { code: "storage_unreachable", message: MESSAGES.storageUnreachable };

describe("the audio bucket killed or hung", () => {
  it.each(["killed", "paused"] as const)(
    "%s: upload, playback, backup and restore answer 503 'Storage unreachable' in seconds, the book and lists still answer, and all work again after",
    async (fault) => {
      const bucket = await startBucket();
      const server = await startApp(bucket);
      const owner = new ApiClient(server.url);
      await owner.register(`owner_${fault}`);
      const memory = await saveMemory(owner, await serverFixture("tone.mp3"));
      const backup = await owner.request("GET", "/api/backup-memories");
      expect(backup.status).toBe(200);
      const zip = Buffer.from(await backup.arrayBuffer());
      const heir = new ApiClient(server.url);
      await heir.register(`heir_${fault}`);

      if (fault === "killed") await bucket.kill();
      else bucket.pause();

      const timed = async (call: () => Promise<Response>) => {
        const began = Date.now();
        const res = await call();
        return { res, seconds: (Date.now() - began) / 1000 };
      };
      const upload = await timed(() => owner.upload(Buffer.alloc(0, 0)));
      // An empty file is refused before the bucket is asked; a real one meets the outage.
      expect(upload.res.status).toBe(400);
      const mp3 = await serverFixture("tone.mp3");
      for (const call of [
        () => owner.upload(mp3),
        () => owner.request("GET", memory.audioUrl),
        () => owner.request("GET", "/api/backup-memories"),
        () => heir.request("POST", "/api/restore", restoreForm(zip)),
        () => owner.request("GET", "/api/health"),
      ]) {
        const { res, seconds } = await timed(call);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual(unreachable);
        expect(seconds).toBeLessThan(8);
      }
      expect((await owner.request("GET", "/api/memory-book")).status).toBe(200);
      expect((await owner.json<MemoryPage>("GET", "/api/memories")).data.total).toBe(1);
      // Nothing half-written: the restore refused during the outage imported nothing.
      expect((await heir.json<MemoryPage>("GET", "/api/memories")).data.total).toBe(0);

      await bucket.recover();
      expect(server.process.exitCode).toBeNull();
      await uploadUrl(owner, mp3);
      const audio = await owner.request("GET", memory.audioUrl);
      expect(audio.status).toBe(200);
      expect(Buffer.from(await audio.arrayBuffer()).equals(mp3)).toBe(true);
      const restored = await heir.json<RestoreResult>("POST", "/api/restore", restoreForm(zip));
      expect(restored.data).toEqual({ imported: 1, skipped: 0, failed: [] });
      expect((await owner.request("GET", "/api/health")).status).toBe(200);
      expect(server.logs.join("")).not.toMatch(/"level":60|exited/);
    },
  );

  it.each(["killed", "paused"] as const)(
    "%s mid-download: the backup and the playback are cut, never a complete-looking file",
    async (fault) => {
      const bucket = await startBucket();
      const server = await startApp(bucket);
      const owner = new ApiClient(server.url);
      await owner.register(`cut_${fault}`);
      const big = await largeMp3(16);
      const memory = await saveMemory(owner, big);
      let interruptedAt = 0;
      const interrupt = async () => {
        if (fault === "killed") await bucket.kill();
        else bucket.pause();
        interruptedAt = Date.now();
      };
      // Cut within the bucket's timeouts, not left hanging until some far-off default ends it.
      const cutSoon = () => expect(Date.now() - interruptedAt).toBeLessThan(8000);

      const playback = await owner.request("GET", memory.audioUrl);
      expect(playback.status).toBe(200);
      await expect(readAll(playback, interrupt)).rejects.toThrow();
      cutSoon();
      await bucket.recover();

      const backup = await owner.request("GET", "/api/backup-memories");
      expect(backup.status).toBe(200);
      await expect(readAll(backup, interrupt)).rejects.toThrow();
      cutSoon();
      await bucket.recover();

      expect(server.process.exitCode).toBeNull();
      const whole = await owner.request("GET", "/api/backup-memories");
      expect(await readAll(whole)).toBeGreaterThan(big.length);
    },
  );

  it("processing during an outage is retried by the queue and ends saved", async () => {
    const bucket = await startBucket();
    const server = await startApp(bucket);
    const owner = new ApiClient(server.url);
    await owner.register("processing_outage");
    const audioUrl = await uploadUrl(owner, await serverFixture("tone.mp3"));
    await bucket.kill();
    const { status, data } = await owner.json<Memory>("POST", "/api/memories/process", {
      audioUrl,
    });
    expect(status).toBe(201);
    // The first attempt meets the outage (the worker logs it) and the memory stays processing.
    const deadline = Date.now() + 15_000;
    while (!server.logs.join("").includes("job failed")) {
      if (Date.now() > deadline) throw new Error(`no failed attempt logged: ${server.logs}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await owner.json<Memory>("GET", `/api/memories/${data.id}`)).data.status).toBe(
      "processing",
    );
    await bucket.recover();
    const memory = await settle(owner, data.id);
    expect(memory.status).toBe("saved");
    expect(memory.error).toBeNull();
  });
});
