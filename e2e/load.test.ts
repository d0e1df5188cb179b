import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenAiStub, startOpenAiStub } from "../src/server/test/openai-stub";
import type { Memory, MemoryPage } from "../src/shared/schemas";
import { ApiClient, residentMb, serverFixture } from "./api-client";
import { type RunningServer, startServer } from "./harness";

// Bounded load on loopback: it stops by itself after LOAD_SECONDS.
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const USERS = 5;
// Processing is the slow part (five stages each); past this many the loop keeps uploading but
// stops queueing work, so the drain at the end stays bounded however fast the machine is.
const MAX_PROCESSED = Number(process.env.LOAD_MAX_PROCESSED ?? 300);
const WORDS = ["beach", "grandpa", "castle", "birthday", "snow", "garden", "bicycle", "story"];

describe(`${CLIENTS} concurrent clients for ${SECONDS} s`, () => {
  let stub: OpenAiStub;
  let server: RunningServer;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    server = await startServer({
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
  });
  afterAll(async () => {
    await server?.cleanup();
    await stub?.close();
  });

  it(
    "mixes list, search, upload and processing with no 5xx, no lost upload and bounded memory",
    async () => {
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
          expect(created.status).toBe(201);
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
            if (res.status === 201)
              processed.push({ client, id: ((await res.json()) as Memory).id });
          }
        }
      }
      await Promise.all(Array.from({ length: CLIENTS }, (_, i) => clientLoop(i)));
      clearInterval(sampler);

      const total = [...statuses.values()].reduce((a, b) => a + b, 0);
      const serverErrors = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
      process.stdout.write(
        `load: ${total} requests in ${SECONDS} s (${Math.round(total / SECONDS)}/s), statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${uploads} uploads, peak RSS ${Math.round(peakRss)} MB\n`,
      );
      expect(serverErrors).toBe(0);
      expect([...statuses.keys()].every((s) => s < 400)).toBe(true);
      expect(server.logs.join("")).not.toMatch(/SQLITE_BUSY|database is locked/);
      // A node server with the app and a SQLite cache stays well inside this on any journal size.
      expect(peakRss).toBeLessThan(600);

      // Every upload is on disk and every processed recording ends saved.
      const files = await readdir(path.join(server.dataDir, "audio"));
      expect(files.filter((f) => !f.startsWith(".")).length).toBe(USERS * 20 + uploads);
      const until = Date.now() + 180_000;
      for (const { client, id } of processed) {
        for (;;) {
          const { data } = await client.json<Memory>("GET", `/api/memories/${id}`);
          if (data.status === "saved") break;
          expect(data.status).not.toBe("failed");
          if (Date.now() > until) throw new Error(`memory ${id} still ${data.status}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      const listed = await (users[0] as ApiClient).json<MemoryPage>("GET", "/api/memories");
      expect(listed.data.total).toBeGreaterThanOrEqual(20);
      // Seeding, the run itself, and the queue draining afterwards on a busy 2-core machine.
    },
    (SECONDS + 240) * 1000,
  );
});
