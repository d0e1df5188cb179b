import { mkdir, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import path from "node:path";
import Fastify from "fastify";
import { loadConfig } from "../src/server/config";
import type { DatabaseKind } from "../src/server/db/connection";
import { ownJournalId } from "../src/server/journals/journals.repo";
import { MemoriesRepo } from "../src/server/memories/memories.repo";
import { searchTokens } from "../src/server/memories/memory-search";
import { LocalAudioStorage } from "../src/server/storage/local-storage";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { buildAppOn, createTestDatabase, makeTempDir } from "../src/server/test/harness";
import { seedJournal } from "./lib/journal";
import { CONNECTIONS, HTTP_SECONDS, load, loadAverage, markdownTable } from "./lib/load";
import { topSelfTime } from "./lib/profile";

/**
 * The app's own cost per request in CPU time: this process's CPU time per request under load
 * (autocannon included, as in every figure here) for the app and for a bare Fastify route sending
 * the same body, and the repository query's own CPU time called sequentially; app own = app -
 * Fastify - query (the session lookup, hooks, validation, mapping and serialization beyond what
 * the bare route does). On PostgreSQL the database server's CPU is in none of these. A busy
 * machine still inflates CPU time per request (fewer requests per event-loop turn): compare runs
 * at similar load. With PROFILE_DIR set, the app's load is also profiled (a .cpuprofile per case)
 * and the functions with the most self time are printed.
 */
const SIZE = Number(process.env.BENCH_SIZE ?? 1000);
const KINDS = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",") as DatabaseKind[];
const PROFILE_DIR = process.env.PROFILE_DIR;
const QUERY_CALLS = 200;

const rows: string[][] = [];
const profiles: string[] = [];

async function cpuPerRequest(url: string, cookie: string) {
  const before = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await load(url, cookie);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(before);
  return { cpuUs: (used.user + used.system) / (result.perSecond * seconds), ...result };
}

async function queryCpu(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const before = process.cpuUsage();
  for (let i = 0; i < QUERY_CALLS; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / QUERY_CALLS;
}

async function main(): Promise<void> {
  let bareBody: unknown = null;
  const bare = Fastify({ logger: false });
  bare.get("/*", async () => bareBody);
  const bareAddress = await bare.listen({ port: 0, host: "127.0.0.1" });
  const inspector = new Session();
  inspector.connect();
  if (PROFILE_DIR) await mkdir(PROFILE_DIR, { recursive: true });

  try {
    for (const kind of KINDS) {
      const dataDir = await makeTempDir("vmj-bench-");
      const db = await createTestDatabase(kind);
      const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent" });
      const app = await buildAppOn({
        config,
        database: db.handle,
        storage: new LocalAudioStorage(config.audioDir),
      });
      try {
        const owner = await createUserWithSession({ database: db.handle, config });
        const repo = new MemoriesRepo(db.handle.db, db.handle.kind);
        await seedJournal(repo, owner.user.id, SIZE);
        const address = await app.listen({ port: 0, host: "127.0.0.1" });
        const scope = { journalId: ownJournalId(owner.user.id), savedOnly: false };
        const cases: [string, string, () => Promise<unknown>][] = [
          ["list page 1", "/api/memories?page=1", () => repo.list(scope, 1)],
          [
            "search 'castl'",
            "/api/memories/search?q=castl",
            () => repo.search(scope, searchTokens("castl"), 1),
          ],
        ];
        for (const [label, urlPath, direct] of cases) {
          const response = await fetch(`${address}${urlPath}`, {
            headers: { cookie: owner.cookie },
          });
          if (!response.ok) throw new Error(`${urlPath}: ${response.status}`);
          bareBody = await response.json();
          await load(`${address}${urlPath}`, owner.cookie); // warm-up (JIT, statement cache)
          const appLoad = await cpuPerRequest(`${address}${urlPath}`, owner.cookie);
          const bareLoad = await cpuPerRequest(`${bareAddress}${urlPath}`, owner.cookie);
          const query = await queryCpu(direct);
          rows.push([
            kind,
            loadAverage(),
            String(SIZE),
            label,
            appLoad.cpuUs.toFixed(0),
            bareLoad.cpuUs.toFixed(0),
            query.toFixed(0),
            (appLoad.cpuUs - bareLoad.cpuUs - query).toFixed(0),
            appLoad.perSecond.toFixed(0),
            bareLoad.perSecond.toFixed(0),
          ]);
          if (PROFILE_DIR) {
            await inspector.post("Profiler.enable");
            await inspector.post("Profiler.start");
            await load(`${address}${urlPath}`, owner.cookie);
            const { profile } = await inspector.post("Profiler.stop");
            const file = path.join(PROFILE_DIR, `${kind}-${label.replace(/\W+/g, "-")}.cpuprofile`);
            await writeFile(file, JSON.stringify(profile));
            profiles.push(`${kind} ${label} (${file}):\n${topSelfTime(profile, 15)}`);
          }
        }
      } finally {
        await app.close();
        await db.cleanup();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    inspector.disconnect();
    await bare.close();
  }

  const header = [
    "db",
    "load",
    "memories",
    "request",
    "app CPU µs/req",
    "Fastify CPU µs/req",
    "query CPU µs",
    "app own µs",
    "HTTP req/s",
    "Fastify req/s",
  ];
  process.stdout.write(markdownTable(header, rows));
  process.stdout.write(
    `\n${CONNECTIONS} connections, ${HTTP_SECONDS} s per load. CPU µs/req = this process's CPU time (user + system, autocannon included) over the load / requests served; query CPU = the repository query alone, ${QUERY_CALLS} sequential calls; app own = app - Fastify - query. load = 1-minute load average at the row.\n`,
  );
  for (const text of profiles) process.stdout.write(`\n${text}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
