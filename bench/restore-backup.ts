import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, readFile, rm, stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";
import { loadConfig } from "../src/server/config";
import { newId } from "../src/server/ids";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { sampleRss } from "./lib/rss";

/**
 * Restoring a backup of at least 1 GB of audio over real HTTP: time and peak memory, beside the
 * floor of copying the same zip on disk. The zip is made like the backup makes it (memories.json
 * plus stored audio), with real MP3 frames so every file passes the audio checks.
 */
const FILES = Number(process.env.BENCH_RESTORE_FILES ?? 64);
const FILE_MB = Number(process.env.BENCH_RESTORE_FILE_MB ?? 16);

async function writeBackupZip(file: string): Promise<void> {
  const frames = await readFile(
    path.join(import.meta.dirname, "../src/server/test/fixtures/tone-noid3.mp3"),
  );
  const copies = Math.ceil((FILE_MB * 1024 * 1024) / frames.length);
  const audio = Buffer.concat(Array.from({ length: copies }, () => frames));
  const memories = Array.from({ length: FILES }, (_, i) => ({
    id: `bench-memory-${i}`,
    user_id: "someone",
    title: `Memory ${i}`,
    audioUrl: `/api/audio/a${i}`,
    transcript: "We went to the beach.",
    summary: "My dear, we went to the beach.",
    scores: {},
    duration: 1,
    recordedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
    tags: ["beach"],
    status: "saved",
    stage: null,
    error: null,
    createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
    audioFile: `audio/a${i}.mp3`,
    audioContentType: "audio/mpeg",
    audioBytes: audio.length,
    comments: [],
  }));
  const zip = new ZipFile();
  const json = { version: 1, exportedAt: new Date().toISOString(), userId: "someone", memories };
  zip.addBuffer(Buffer.from(JSON.stringify(json)), "memories.json");
  for (let i = 0; i < FILES; i++) {
    zip.addReadStreamLazy(`audio/a${i}.mp3`, { compress: false }, (cb) =>
      cb(null, Readable.from([audio])),
    );
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

async function main(): Promise<void> {
  const dataDir = await makeTempDir("vmj-bench-restore-");
  const db = await createTestDatabase("sqlite");
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    RESTORE_MAX_BYTES: String(8 * 1024 * 1024 * 1024),
  });
  const storage = new LocalAudioStorage(config.audioDir);
  await storage.checkWritable();
  const app = await buildAppOn({ config, database: db.handle, storage });
  const zipFile = path.join(dataDir, "bench-backup.zip");
  try {
    await writeBackupZip(zipFile);
    const zipBytes = (await stat(zipFile)).size;
    const zipMb = zipBytes / 1024 / 1024;

    // Floor: copy the zip once on the same disk (read it and write it whole).
    const floorStart = performance.now();
    await copyFile(zipFile, `${zipFile}.copy`);
    const floorSeconds = (performance.now() - floorStart) / 1000;
    await rm(`${zipFile}.copy`);

    const owner = await createUserWithSession({ database: db.handle, config });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const rss = sampleRss();
    const boundary = `----bench${newId()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="backup"; filename="backup.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const started = performance.now();
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const request = http.request(
          `${address}/api/restore`,
          {
            method: "POST",
            headers: {
              cookie: owner.cookie,
              "content-type": `multipart/form-data; boundary=${boundary}`,
              "content-length": head.length + zipBytes + tail.length,
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk: Buffer) => {
              text += chunk.toString();
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        request.on("error", reject);
        request.write(head);
        const file = createReadStream(zipFile);
        file.on("error", reject);
        file.on("end", () => request.end(tail));
        file.pipe(request, { end: false });
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const peakGrowth = rss.stop();
    if (status !== 200) throw new Error(`restore answered ${status}: ${body}`);
    const result = JSON.parse(body) as { imported: number };
    if (result.imported !== FILES) throw new Error(`restored ${result.imported} of ${FILES}`);
    process.stdout.write(
      [
        `| journal | zip size | restore time | restore MB/s | peak RSS growth | disk-copy floor MB/s |`,
        `| ------- | -------- | ------------ | ------------ | --------------- | -------------------- |`,
        `| ${FILES} memories, ${FILES * FILE_MB} MB audio | ${zipMb.toFixed(0)} MB | ${seconds.toFixed(1)} s | ${(zipMb / seconds).toFixed(0)} | ${(peakGrowth / 1024 / 1024).toFixed(0)} MB (baseline ${(rss.baseline / 1024 / 1024).toFixed(0)} MB) | ${(zipMb / floorSeconds).toFixed(0)} |`,
        "",
      ].join("\n"),
    );
  } finally {
    await app.close();
    await db.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
