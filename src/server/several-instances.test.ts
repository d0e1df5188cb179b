import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Memory } from "../shared/schemas";
import type { App } from "./app";
import { SESSION_COOKIE } from "./auth/session.service";
import { loadConfig } from "./config";
import { type DatabaseHandle, openDatabase } from "./db/connection";
import { createAudioStorage } from "./storage/storage-factory";
import { speechMp3 } from "./test/audio-fixtures";
import { createUserWithSession, type TestUser } from "./test/auth-helpers";
import { buildAppOn, createTestApp, makeTempDir, type TestApp } from "./test/harness";
import {
  defaultStubHandler,
  type OpenAiStub,
  startOpenAiStub,
  stubProviders,
} from "./test/openai-stub";
import { startTestS3 } from "./test/s3-server";
import { multipart, upload, visitorCookie } from "./test/upload-helpers";
import { unzip } from "./test/zip";

const RATE_LIMIT_AUTH_PER_MINUTE = 4;
const isTranscription = (path: string) => path.endsWith("/audio/transcriptions");

/**
 * Two app instances on one PostgreSQL database and one S3-compatible bucket, as behind a load
 * balancer: whatever one instance stored or decided, the other sees. Nothing either needs lives
 * only in the other's memory.
 */
describe("several instances on PostgreSQL and one bucket", () => {
  let stub: OpenAiStub;
  let a: TestApp;
  let b: App;
  let bDatabase: DatabaseHandle;
  let owner: TestUser;
  let mp3: Buffer;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    mp3 = await speechMp3("We went to the beach.");
    const env = {
      WORKER_CONCURRENCY: "0",
      RATE_LIMIT_AUTH_PER_MINUTE: String(RATE_LIMIT_AUTH_PER_MINUTE),
    };
    a = await createTestApp({
      kind: "postgres",
      storage: "s3",
      env,
      deps: { ai: stubProviders(stub) },
    });
    // Instance B: its own connection pool, its own S3 client, its own services and worker.
    const bConfig = loadConfig({
      ...a.bucket?.server.env(a.bucket.settings),
      DATA_DIR: await makeTempDir("vmj-data-b-"),
      NODE_ENV: "test",
      ...env,
    });
    bDatabase = await openDatabase(a.databaseTarget);
    b = await buildAppOn({
      config: bConfig,
      database: bDatabase,
      storage: createAudioStorage(bConfig.storage),
      ai: stubProviders(stub),
    });
    await b.ready();
    owner = await createUserWithSession(a, { isPublic: false });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.cleanup();
    await stub?.close();
  });

  it("uploads through A, processes on B, plays and backs up through A", async () => {
    const login = await a.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: owner.user.username, password: owner.password },
    });
    expect(login.statusCode).toBe(200);
    const session = login.cookies.find((c) => c.name === SESSION_COOKIE);
    const cookie = `${SESSION_COOKIE}=${session?.value}`;
    // The session A opened is valid on B.
    expect(
      (await b.inject({ method: "GET", url: "/api/user", headers: { cookie } })).statusCode,
    ).toBe(200);

    const uploaded = await upload(a, mp3, { cookie, uploadKey: "recording-0001" });
    expect(uploaded.statusCode).toBe(201);
    // The browser retries on B after losing A's answer: the upload key finds the first upload.
    const retried = await upload({ app: b }, mp3, { cookie, uploadKey: "recording-0001" });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual(uploaded.json());

    const audioUrl = uploaded.json<{ url: string }>().url;
    const created = await a.app.inject({
      method: "POST",
      url: "/api/memories/process",
      headers: { cookie },
      payload: { audioUrl },
    });
    expect(created.statusCode).toBe(201);
    const memory = created.json<Memory>();
    // A runs no worker here; B's takes the job from the shared queue.
    expect(await b.worker.drain()).toBe(1);

    const seen = await a.app.inject({
      method: "GET",
      url: `/api/memories/${memory.id}`,
      headers: { cookie },
    });
    expect(seen.json<Memory>().status).toBe("saved");
    const played = await a.app.inject({
      method: "GET",
      url: audioUrl,
      headers: { cookie, range: "bytes=0-99" },
    });
    expect(played.statusCode).toBe(206);
    expect(played.rawPayload.equals(mp3.subarray(0, 100))).toBe(true);

    const backup = await a.app.inject({
      method: "GET",
      url: "/api/backup-memories",
      headers: { cookie },
    });
    const files = await unzip(backup.rawPayload);
    const audio = [...files.entries()].filter(([name]) => name.startsWith("audio/"));
    expect(audio.map(([, bytes]) => bytes.equals(mp3))).toEqual([true]);
  });

  it("lets the browser that recorded on A claim the recording on B", async () => {
    const anonymous = await upload(a, mp3);
    const visitor = visitorCookie(anonymous);
    const created = await a.app.inject({
      method: "POST",
      url: "/api/memories/process",
      headers: { cookie: visitor },
      payload: { audioUrl: anonymous.json<{ url: string }>().url },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<Memory>().id;
    expect(await b.worker.drain()).toBe(1);
    const claimed = await b.inject({
      method: "POST",
      url: `/api/memories/${id}/claim`,
      headers: { cookie: `${visitor}; ${owner.cookie}` },
    });
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json<Memory>().user_id).toBe(owner.user.id);
  });

  it("counts rate limits across both instances", async () => {
    const attempt = (app: App) =>
      app.inject({
        method: "POST",
        url: "/api/login",
        remoteAddress: "203.0.113.7",
        payload: { username: "nobody_here", password: "wrong password" },
      });
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT_AUTH_PER_MINUTE; i++) {
      statuses.push((await attempt(i % 2 === 0 ? a.app : b)).statusCode);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    // Each instance saw only half the attempts; together they reached the limit.
    expect((await attempt(a.app)).statusCode).toBe(429);
    expect((await attempt(b)).statusCode).toBe(429);
  });

  it("finishes on B a recording whose instance was killed while processing it", async () => {
    let reached: () => void = () => undefined;
    const transcriptionStarted = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let hang = true;
    stub.handle((request) => {
      if (hang && isTranscription(request.path)) {
        reached();
        return { delayMs: 120_000 };
      }
      return defaultStubHandler(request);
    });

    // Instance A2: a real server process on the same database and bucket, with its own worker.
    const dataDir = await makeTempDir("vmj-data-a2-");
    const server = await startServerProcess({
      ...a.bucket?.server.env(a.bucket.settings),
      DATABASE_URL: a.databaseTarget.kind === "postgres" ? a.databaseTarget.url : "",
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      AI_PROVIDER: "openai",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: stub.baseURL,
      OPENAI_MAX_RETRIES: "0",
      WORKER_CONCURRENCY: "1",
      JOB_LEASE_MS: "1000",
      HOUSEKEEPING_INTERVAL_MINUTES: "0",
    });
    try {
      const body = multipart(mp3);
      const uploaded = await fetch(`${server.url}/api/upload`, {
        method: "POST",
        headers: { ...body.headers, cookie: owner.cookie },
        body: new Uint8Array(body.payload),
      });
      expect(uploaded.status).toBe(201);
      const { url: audioUrl } = (await uploaded.json()) as { url: string };
      const created = await fetch(`${server.url}/api/memories/process`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: owner.cookie },
        body: JSON.stringify({ audioUrl }),
      });
      expect(created.status).toBe(201);
      const memory = (await created.json()) as Memory;

      await transcriptionStarted;
      server.process.kill("SIGKILL");
      await server.exited;
      hang = false;

      // B takes the job once A2's lease (1 s) has run out, and finishes it.
      const seenByB = async () =>
        (
          await b.inject({
            method: "GET",
            url: `/api/memories/${memory.id}`,
            headers: { cookie: owner.cookie },
          })
        ).json<Memory>();
      expect((await seenByB()).status).toBe("processing");
      const deadline = Date.now() + 10_000;
      while ((await b.worker.drain()) === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await seenByB()).status).toBe("saved");
    } finally {
      server.process.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("starting a server on a bucket", () => {
  it("stops start-up with a message naming the variable when the bucket is missing", async () => {
    const s3 = await startTestS3();
    const dataDir = await makeTempDir("vmj-data-start-");
    try {
      const settings = { ...(await s3.createBucket()), bucket: "no-such-bucket" };
      await expect(
        startServerProcess({ ...s3.env(settings), DATA_DIR: dataDir, PORT: "0", NODE_ENV: "test" }),
      ).rejects.toThrow(
        /server exited \(1\)[\s\S]*Start-up failed: Audio bucket s3:\/\/no-such-bucket\/ is not reachable or not writable: the bucket does not exist\. Check STORAGE_URL\./,
      );
    } finally {
      await s3.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Starts `src/server/main.ts` in its own process and waits until it listens; resolves its URL. */
async function startServerProcess(
  env: Record<string, string>,
): Promise<{ url: string; process: ChildProcess; exited: Promise<unknown> }> {
  const main = path.join(import.meta.dirname, "main.ts");
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 30_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${stderr}`));
    });
  });
  return { url, process: child, exited };
}
