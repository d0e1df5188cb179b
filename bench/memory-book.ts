import { rm } from "node:fs/promises";
import http from "node:http";
import { pipeline } from "node:stream/promises";
import { AudioRepo } from "../src/server/audio/audio.repo";
import { loadConfig } from "../src/server/config";
import { MemoriesRepo, type NewMemory } from "../src/server/memories/memories.repo";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession, type TestUser } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { storeRecording } from "./lib/recordings";
import { sampleRss } from "./lib/rss";
import { sink } from "./lib/sink";

/**
 * The printable memory book's time and peak memory for journals of 250 and 1,000 memories, streamed
 * over real HTTP, beside the backup zip of the same 1,000-memory journal and the floor of reading
 * those memories from the database in batches. Peak memory that does not grow with the journal is
 * what "flat" means here.
 */
const MEMORIES = Number(process.env.BENCH_BOOK_MEMORIES ?? 1000);
const SMALL = Math.round(MEMORIES / 4);
const AUDIO_KB = Number(process.env.BENCH_BOOK_AUDIO_KB ?? 48);

const WORDS =
  "the orchard summer grandmother river bread lantern winter harbour garden letters kitchen laughter snow bicycle village chapel violin γιαγιά бабушка été".split(
    " ",
  );

/** A transcript of about `words` words from a fixed pseudo-random sequence. */
function transcript(seed: number, words: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length] ?? "and");
    if (i % 14 === 13) out.push(".");
  }
  return out.join(" ").replace(/ \./g, ".");
}

/** Peak RSS growth and seconds while `work` runs. */
async function measure<T>(
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; cpuSeconds: number; peakMb: number }> {
  const rss = sampleRss();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  const peakGrowth = rss.stop();
  return {
    result,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakMb: peakGrowth / 1024 / 1024,
  };
}

function download(url: string, cookie: string): Promise<{ status: number; bytes: number }> {
  const out = sink();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (res) => {
        pipeline(res, out.stream).then(
          () => resolve({ status: res.statusCode ?? 0, bytes: out.bytes() }),
          reject,
        );
      })
      .on("error", reject);
  });
}

async function main(): Promise<void> {
  const dataDir = await makeTempDir("vmj-bench-book-");
  const db = await createTestDatabase("sqlite");
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    APP_URL: "https://journal.example.org",
  });
  const storage = new LocalAudioStorage(config.audioDir);
  await storage.checkWritable();
  const app = await buildAppOn({ config, database: db.handle, storage });
  try {
    const repo = new MemoriesRepo(db.handle.db, db.handle.kind);
    const audioRepo = new AudioRepo(db.handle.db);
    const audio = Buffer.alloc(AUDIO_KB * 1024, 0x55);
    const seed = async (owner: TestUser, count: number) => {
      const memories: NewMemory[] = [];
      for (let i = 0; i < count; i++) {
        const { audioId, memoryId } = await storeRecording(
          storage,
          audioRepo,
          owner.user.id,
          audio,
        );
        memories.push({
          id: memoryId,
          userId: owner.user.id,
          audioId,
          title: `Memory ${i}: ${transcript(i, 5)}`,
          summary: transcript(i + 7, 60),
          // Between 80 and 600 words: most fit a page, some run over two.
          transcript: transcript(i + 13, 80 + ((i * 37) % 520)),
          tags: ["family", i % 2 ? "summer" : "winter"],
          recordedAt: new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString(),
          status: "saved",
        });
      }
      await repo.insertMany(memories);
    };
    const large = await createUserWithSession({ database: db.handle, config });
    const small = await createUserWithSession({ database: db.handle, config });
    await seed(large, MEMORIES);
    await seed(small, SMALL);

    // Floor: read the same memories in batches, as the book does (once; the book reads three times).
    const floor = await measure(async () => {
      let after: { recordedAt: string; seq: number } | null = null;
      let rows = 0;
      for (;;) {
        const batch = await repo.batchForBook(large.user.id, { from: null, to: null }, after, 100);
        rows += batch.length;
        const last = batch[batch.length - 1];
        if (!last) break;
        after = { recordedAt: last.recorded_at, seq: last.seq };
      }
      return rows;
    });

    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const rows: string[] = [];
    const row = (
      what: string,
      bytes: number,
      m: { seconds: number; cpuSeconds: number; peakMb: number },
    ) =>
      rows.push(
        `| ${what} | ${(bytes / 1024 / 1024).toFixed(1)} MB | ${m.seconds.toFixed(1)} s | ${m.cpuSeconds.toFixed(1)} s | ${m.peakMb.toFixed(0)} MB |`,
      );
    for (const [label, owner, count] of [
      ["memory book", small, SMALL],
      ["memory book", large, MEMORIES],
    ] as const) {
      const book = await measure(() => download(`${address}/api/memory-book`, owner.cookie));
      if (book.result.status !== 200) throw new Error(`memory book answered ${book.result.status}`);
      row(`${label}, ${count} memories`, book.result.bytes, book);
    }
    const backup = await measure(() => download(`${address}/api/backup-memories`, large.cookie));
    if (backup.result.status !== 200) throw new Error(`backup answered ${backup.result.status}`);
    row(
      `backup zip, same ${MEMORIES} memories (${AUDIO_KB} KB audio each)`,
      backup.result.bytes,
      backup,
    );
    row(`floor: read ${floor.result} memories in batches`, 0, floor);

    process.stdout.write(
      [
        `| what | output | time | cpu time | peak RSS growth |`,
        `| ---- | ------ | ---- | -------- | --------------- |`,
        ...rows,
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
