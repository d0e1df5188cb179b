import { type ChildProcess, spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { AudioRepo } from "../src/server/audio/audio.repo";
import { loadConfig } from "../src/server/config";
import { MemoriesRepo } from "../src/server/memories/memories.repo";
import type { AudioStorage } from "../src/server/storage/audio-storage";
import { createAudioStorage } from "../src/server/storage/storage-factory";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { multipart } from "../src/server/test/upload-helpers";
import { storeRecording } from "./lib/recordings";
import { sampleRss } from "./lib/rss";
import { sink } from "./lib/sink";

/**
 * Audio through an S3-compatible bucket (s3rver in its own process, on this machine) beside the
 * local folder, in the same run: upload and playback (first byte, full download, a Range) of a
 * 10 MB recording over real HTTP; then a backup of 1 GB of audio from the bucket with its peak
 * memory, beside the floor of reading the same objects straight from the bucket.
 */
const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 5);
const RECORDING_MB = 10;
const BACKUP_FILES = Number(process.env.BENCH_S3_BACKUP_FILES ?? 64);
const BACKUP_FILE_MB = Number(process.env.BENCH_S3_BACKUP_FILE_MB ?? 16);

const print = (line: string) => process.stdout.write(`${line}\n`);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function startBucketProcess(): Promise<{ env: Record<string, string>; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "lib/s3rver-process.ts")],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) =>
      resolve(JSON.parse(line) as Record<string, string>),
    );
    child.once("exit", (code) => reject(new Error(`s3rver process exited (${code})`)));
  });
  return { env, child };
}

interface Timed {
  status: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  body?: string;
}

function request(url: string, options: http.RequestOptions, body?: Buffer): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = 0;
    const req = http.request(url, options, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        if (bytes < 10_000) chunks.push(chunk);
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          firstByteMs,
          totalMs: performance.now() - started,
          bytes,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function appOn(storageEnv: Record<string, string>) {
  const dataDir = await makeTempDir("vmj-bench-storage-");
  const db = await createTestDatabase("sqlite");
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    UPLOAD_MAX_BYTES: String(64 * 1024 * 1024),
    RATE_LIMIT_UPLOAD_PER_HOUR: "1000",
    WORKER_CONCURRENCY: "0",
    ...storageEnv,
  });
  const storage = createAudioStorage(config.storage);
  await storage.checkWritable();
  const app = await buildAppOn({ config, database: db.handle, storage });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const owner = await createUserWithSession({ database: db.handle, config });
  return {
    address,
    storage,
    db,
    config,
    owner,
    close: async () => {
      await app.close();
      await db.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type BenchApp = Awaited<ReturnType<typeof appOn>>;

async function uploadAndPlay(app: BenchApp, recording: Buffer) {
  const uploads: number[] = [];
  const firstBytes: number[] = [];
  const downloads: number[] = [];
  const ranges: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const body = multipart(recording, { type: "audio/wav", filename: "long.wav" });
    const uploaded = await request(
      `${app.address}/api/upload`,
      { method: "POST", headers: { ...body.headers, cookie: app.owner.cookie } },
      body.payload,
    );
    if (uploaded.status !== 201)
      throw new Error(`upload answered ${uploaded.status}: ${uploaded.body}`);
    uploads.push(uploaded.totalMs);
    const { url } = JSON.parse(uploaded.body ?? "{}") as { url: string };
    const whole = await request(`${app.address}${url}`, { headers: { cookie: app.owner.cookie } });
    if (whole.status !== 200 || whole.bytes !== recording.length)
      throw new Error("playback failed");
    firstBytes.push(whole.firstByteMs);
    downloads.push(whole.totalMs);
    const middle = Math.floor(recording.length / 2);
    const range = await request(`${app.address}${url}`, {
      headers: { cookie: app.owner.cookie, range: `bytes=${middle}-${middle + 65535}` },
    });
    if (range.status !== 206 || range.bytes !== 65536) throw new Error("range failed");
    ranges.push(range.firstByteMs);
  }
  return {
    upload: median(uploads),
    firstByte: median(firstBytes),
    download: median(downloads),
    range: median(ranges),
  };
}

/** Reading one stored file straight from storage, no app: the floor under playback. */
async function directRead(
  storage: AudioStorage,
  key: string,
): Promise<{ firstByte: number; total: number }> {
  const started = performance.now();
  let firstByte = 0;
  for await (const _chunk of storage.read(key)) {
    if (firstByte === 0) firstByte = performance.now() - started;
  }
  return { firstByte, total: performance.now() - started };
}

async function backupFromBucket(bucketEnv: Record<string, string>) {
  const app = await appOn(bucketEnv);
  try {
    const repo = new MemoriesRepo(app.db.handle.db, app.db.handle.kind);
    const chunk = Buffer.alloc(BACKUP_FILE_MB * 1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + (i >> 10)) & 0xff;
    const audioRepo = new AudioRepo(app.db.handle.db);
    const keys: string[] = [];
    for (let i = 0; i < BACKUP_FILES; i++) {
      const { audioId, memoryId, key } = await storeRecording(
        app.storage,
        audioRepo,
        app.owner.user.id,
        chunk,
      );
      keys.push(key);
      await repo.insert({
        id: memoryId,
        userId: app.owner.user.id,
        audioId,
        title: `Memory ${i}`,
        status: "saved",
      });
    }
    const totalMb = BACKUP_FILES * BACKUP_FILE_MB;

    const floorStart = performance.now();
    for (const key of keys) await pipeline(app.storage.read(key), sink().stream);
    const floorSeconds = (performance.now() - floorStart) / 1000;

    const rss = sampleRss();
    const backup = await request(`${app.address}/api/backup-memories`, {
      headers: { cookie: app.owner.cookie },
    });
    const peakGrowth = rss.stop();
    if (backup.status !== 200) throw new Error(`backup answered ${backup.status}`);
    const zipMb = backup.bytes / 1024 / 1024;
    const seconds = backup.totalMs / 1000;
    print("");
    print(
      "| journal | zip size | backup time | backup MB/s | peak RSS growth | bucket-read floor MB/s |",
    );
    print(
      "| ------- | -------- | ----------- | ----------- | --------------- | ---------------------- |",
    );
    print(
      `| ${BACKUP_FILES} memories, ${totalMb} MB audio in the bucket | ${zipMb.toFixed(0)} MB | ${seconds.toFixed(1)} s | ${(zipMb / seconds).toFixed(0)} | ${(peakGrowth / 1024 / 1024).toFixed(0)} MB (baseline ${(rss.baseline / 1024 / 1024).toFixed(0)} MB) | ${(totalMb / floorSeconds).toFixed(0)} |`,
    );
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const bucket = await startBucketProcess();
  const local = await appOn({});
  const s3 = await appOn(bucket.env);
  try {
    const wav = await readFile(
      path.join(import.meta.dirname, "../src/server/test/fixtures/tone.wav"),
    );
    const recording = Buffer.concat([
      wav,
      Buffer.alloc(RECORDING_MB * 1024 * 1024 - wav.length, 1),
    ]);
    const rows: [string, Awaited<ReturnType<typeof uploadAndPlay>>][] = [
      ["local folder (DATA_DIR/audio)", await uploadAndPlay(local, recording)],
      ["S3 bucket (s3rver, same machine)", await uploadAndPlay(s3, recording)],
    ];
    // Floor: the bucket read straight through the SDK, no HTTP in front of it.
    let floorKey = "";
    for await (const file of s3.storage.list()) floorKey = file.key;
    const floors = [];
    for (let round = 0; round < ROUNDS; round++)
      floors.push(await directRead(s3.storage, floorKey));
    print(`Median of ${ROUNDS} rounds; a ${RECORDING_MB} MB recording over real HTTP (127.0.0.1).`);
    print("");
    print(
      "| storage | upload 10 MB | playback first byte | full download 10 MB | Range 64 kB first byte |",
    );
    print(
      "| ------- | ------------ | ------------------- | ------------------- | ---------------------- |",
    );
    for (const [name, r] of rows) {
      print(
        `| ${name} | ${ms(r.upload)} | ${ms(r.firstByte)} | ${ms(r.download)} | ${ms(r.range)} |`,
      );
    }
    print(
      `| floor: the bucket read directly (SDK, no app) | - | ${ms(median(floors.map((f) => f.firstByte)))} | ${ms(median(floors.map((f) => f.total)))} | - |`,
    );
  } finally {
    await local.close();
    await s3.close();
  }
  try {
    await backupFromBucket(bucket.env);
  } finally {
    bucket.child.kill("SIGTERM");
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
