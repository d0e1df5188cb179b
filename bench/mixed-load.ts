import { readdir } from "node:fs/promises";
import path from "node:path";
import { ApiClient, residentMb, serverFixture } from "../e2e/api-client";
import { startServer } from "../e2e/harness";
import { startOpenAiStub } from "../src/server/test/openai-stub";
import type { Memory } from "../src/shared/schemas";
import { markdownTable } from "./lib/load";

/**
 * Mixed load on the built app over loopback (`npm run build` first): CLIENTS clients list, search,
 * upload and process for SECONDS, then the queue drains. Fails (exit 1) on any 4xx or 5xx, SQLite
 * answering busy, an upload missing on disk, a processed recording not saved, or a peak RSS over
 * the limit: a node server with the app and a SQLite cache stays well inside it on any journal size.
 */
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const USERS = 5;
const RSS_LIMIT_MB = 600;
// Processing is the slow part (five stages each); past this many the loop keeps uploading but
// stops queueing work, so the drain at the end stays bounded however fast the machine is.
const MAX_PROCESSED = Number(process.env.LOAD_MAX_PROCESSED ?? 300);
const WORDS = ["beach", "grandpa", "castle", "birthday", "snow", "garden", "bicycle", "story"];

const stub = await startOpenAiStub();
const server = await startServer({
  AI_PROVIDER: "openai",
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: stub.baseURL,
  RATE_LIMIT_AUTH_PER_MINUTE: "1000",
  RATE_LIMIT_UPLOAD_PER_HOUR: "100000",
  RATE_LIMIT_PROCESS_PER_HOUR: "100000",
  RATE_LIMIT_PROCESS_PER_DAY_PER_IP: "100000",
  WORKER_CONCURRENCY: "2",
  LOG_LEVEL: "warn",
});

const mp3 = await serverFixture("tone.mp3");
const users: ApiClient[] = [];
for (let i = 0; i < USERS; i++) {
  const client = new ApiClient(server.url);
  await client.register(`load_user_${i}`);
  // Some saved memories to list and search from the start.
  for (let m = 0; m < 20; m++) {
    const upload = await client.upload(mp3);
    const { url } = (await upload.json()) as { url: string };
    const created = await client.request("POST", "/api/memories", {
      title: `A ${WORDS[m % WORDS.length]} day ${m}`,
      audioUrl: url,
      transcript: `We talked about the ${WORDS[(m + 3) % WORDS.length]} and laughed.`,
      summary: "A lovely day together.",
      tags: [WORDS[m % WORDS.length] ?? "day"],
      recordedAt: new Date(Date.now() - m * 60_000).toISOString(),
    });
    if (created.status !== 201) throw new Error(`seeding answered ${created.status}`);
  }
  users.push(client);
}

const statuses = new Map<number, number>();
const processed: { client: ApiClient; id: string }[] = [];
let uploads = 0;
let inFlight = 0;
let peakRss = await residentMb(server.process.pid ?? 0);
const deadline = Date.now() + SECONDS * 1000;
const sampler = setInterval(() => {
  residentMb(server.process.pid ?? 0)
    .then((mb) => {
      peakRss = Math.max(peakRss, mb);
    })
    .catch(() => undefined);
}, 500);

const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
async function clientLoop(index: number): Promise<void> {
  const client = users[index % USERS] as ApiClient;
  let turn = index;
  while (Date.now() < deadline) {
    turn++;
    const roll = turn % 10;
    if (roll < 4) {
      const res = await client.request("GET", `/api/memories?page=${1 + (turn % 2)}`);
      count(res.status);
      await res.arrayBuffer();
    } else if (roll < 8) {
      const q = WORDS[turn % WORDS.length]?.slice(0, 4) ?? "day";
      const res = await client.request("GET", `/api/memories/search?q=${q}`);
      count(res.status);
      await res.arrayBuffer();
    } else {
      const upload = await client.upload(mp3);
      count(upload.status);
      if (upload.status !== 201) continue;
      uploads++;
      const { url } = (await upload.json()) as { url: string };
      if (processed.length + inFlight >= MAX_PROCESSED) continue;
      inFlight++;
      const res = await client.request("POST", "/api/memories/process", { audioUrl: url });
      inFlight--;
      count(res.status);
      if (res.status === 201) processed.push({ client, id: ((await res.json()) as Memory).id });
    }
  }
}
await Promise.all(Array.from({ length: CLIENTS }, (_, i) => clientLoop(i)));
clearInterval(sampler);

const total = [...statuses.values()].reduce((a, b) => a + b, 0);
const serverErrors = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
const clientErrors = [...statuses]
  .filter(([s]) => s >= 400 && s < 500)
  .reduce((a, [, n]) => a + n, 0);
const busy = /SQLITE_BUSY|database is locked/.test(server.logs.join(""));

// Every upload is on disk and every processed recording ends saved.
const files = await readdir(path.join(server.dataDir, "audio"));
const lostUploads = USERS * 20 + uploads - files.filter((f) => !f.startsWith(".")).length;
let failedMemories = 0;
const until = Date.now() + 180_000;
for (const { client, id } of processed) {
  for (;;) {
    const { data } = await client.json<Memory>("GET", `/api/memories/${id}`);
    if (data.status === "saved") break;
    if (data.status === "failed" || Date.now() > until) {
      failedMemories++;
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
await server.cleanup();
await stub.close();

process.stdout.write(
  markdownTable(
    [
      "clients",
      "seconds",
      "requests",
      "per second",
      "4xx",
      "5xx",
      "uploads",
      "uploads lost",
      "processed",
      "not saved",
      "peak RSS (MB)",
      "RSS limit (MB)",
    ],
    [
      [
        String(CLIENTS),
        String(SECONDS),
        String(total),
        String(Math.round(total / SECONDS)),
        String(clientErrors),
        String(serverErrors),
        String(uploads),
        String(lostUploads),
        String(processed.length),
        String(failedMemories),
        String(Math.round(peakRss)),
        String(RSS_LIMIT_MB),
      ],
    ],
  ),
);
const problems = [
  serverErrors > 0 && `${serverErrors} answers 5xx`,
  clientErrors > 0 && `${clientErrors} answers 4xx`,
  busy && "SQLite answered busy",
  lostUploads !== 0 && `${lostUploads} uploads not on disk`,
  failedMemories > 0 && `${failedMemories} memories not saved`,
  peakRss >= RSS_LIMIT_MB && `peak RSS ${Math.round(peakRss)} MB`,
].filter(Boolean);
if (problems.length > 0) {
  process.stdout.write(`mixed load failed: ${problems.join("; ")}\n`);
  process.exit(1);
}
