import { createReadStream } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { AudioRepo } from "../src/server/audio/audio.repo";
import { loadConfig } from "../src/server/config";
import { MemoriesRepo } from "../src/server/memories/memories.repo";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { storeRecording } from "./lib/recordings";
import { sampleRss } from "./lib/rss";
import { sink } from "./lib/sink";

/**
 * The backup's peak memory and speed for a journal with at least 1 GB of audio, streamed over real
 * HTTP, beside the floor of reading the same files from disk.
 */
const FILES = Number(process.env.BENCH_BACKUP_FILES ?? 64);
const FILE_MB = Number(process.env.BENCH_BACKUP_FILE_MB ?? 16);

async function main(): Promise<void> {
  const dataDir = await makeTempDir("vmj-bench-backup-");
  const db = await createTestDatabase("sqlite");
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test" });
  const storage = new LocalAudioStorage(config.audioDir);
  await storage.checkWritable();
  const app = await buildAppOn({ config, database: db.handle, storage });
  try {
    const owner = await createUserWithSession({ database: db.handle, config });
    const repo = new MemoriesRepo(db.handle.db, db.handle.kind);
    const chunk = Buffer.alloc(FILE_MB * 1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + (i >> 10)) & 0xff;
    const keys: string[] = [];
    const audioRepo = new AudioRepo(db.handle.db);
    for (let i = 0; i < FILES; i++) {
      // Seeding goes through storage and the database as the app would see them.
      const { audioId, memoryId, key } = await storeRecording(
        storage,
        audioRepo,
        owner.user.id,
        chunk,
      );
      keys.push(key);
      await repo.insert({
        id: memoryId,
        userId: owner.user.id,
        audioId,
        title: `Memory ${i}`,
        status: "saved",
      });
    }
    const totalMb = (FILES * FILE_MB).toFixed(0);

    // Floor: read every file once from disk.
    const floorStart = performance.now();
    for (const key of keys) {
      await pipeline(createReadStream(path.join(config.audioDir, key)), sink().stream);
    }
    const floorSeconds = (performance.now() - floorStart) / 1000;

    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const rss = sampleRss();
    const started = performance.now();
    const out = sink();
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${address}/api/backup-memories`, { headers: { cookie: owner.cookie } }, (res) => {
          pipeline(res, out.stream).then(() => resolve(res.statusCode ?? 0), reject);
        })
        .on("error", reject);
    });
    const seconds = (performance.now() - started) / 1000;
    const peakGrowth = rss.stop();
    if (status !== 200) throw new Error(`backup answered ${status}`);
    const zipMb = out.bytes() / 1024 / 1024;
    process.stdout.write(
      [
        `| journal | zip size | backup time | backup MB/s | peak RSS growth | disk-read floor MB/s |`,
        `| ------- | -------- | ----------- | ----------- | --------------- | -------------------- |`,
        `| ${FILES} memories, ${totalMb} MB audio | ${zipMb.toFixed(0)} MB | ${seconds.toFixed(1)} s | ${(zipMb / seconds).toFixed(0)} | ${(peakGrowth / 1024 / 1024).toFixed(0)} MB (baseline ${(rss.baseline / 1024 / 1024).toFixed(0)} MB) | ${(Number(totalMb) / floorSeconds).toFixed(0)} |`,
        "",
      ].join("\n"),
    );
  } finally {
    await app.close();
    await db.cleanup();
    const { rm } = await import("node:fs/promises");
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
