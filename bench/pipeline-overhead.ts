/**
 * Pipeline overhead: from "upload complete" to "memory saved" for a 60 s recording, with an
 * OpenAI-compatible provider on loopback that answers at once. The floor is the same four provider
 * calls (transcribe, summarize, score, tag) made directly through the SDK in the same run.
 */
import { execFileSync } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createAi } from "../src/server/ai/ai-factory";
import { loadConfig } from "../src/server/config";
import { createUserWithSession } from "../src/server/test/auth-helpers";
import { createTestApp } from "../src/server/test/harness";
import { startOpenAiStub } from "../src/server/test/openai-stub";
import { upload } from "../src/server/test/upload-helpers";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const mp3Path = path.join(os.tmpdir(), `bench-60s-${process.pid}.mp3`);
execFileSync("ffmpeg", [
  "-loglevel",
  "error",
  "-y",
  "-f",
  "lavfi",
  "-i",
  "sine=frequency=440:duration=60",
  "-ac",
  "1",
  "-b:a",
  "128k",
  mp3Path,
]);
const mp3 = await readFile(mp3Path);
const stub = await startOpenAiStub();
const env = {
  AI_PROVIDER: "openai",
  OPENAI_API_KEY: "sk-bench",
  OPENAI_BASE_URL: stub.baseURL,
  RATE_LIMIT_UPLOAD_PER_HOUR: "100000",
  RATE_LIMIT_PROCESS_PER_HOUR: "100000",
  RATE_LIMIT_PROCESS_PER_DAY_PER_IP: "100000",
};
const t = await createTestApp({ env });
const user = await createUserWithSession(t);
t.app.worker.start();

const pipelineMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const uploaded = await upload(t, mp3, { cookie: user.cookie });
  const { url } = uploaded.json() as { url: string };
  const started = performance.now();
  const created = await t.app.inject({
    method: "POST",
    url: "/api/memories/process",
    headers: { cookie: user.cookie },
    payload: { audioUrl: url },
  });
  const { id } = created.json() as { id: string };
  for (;;) {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/memories/${id}`,
      headers: { cookie: user.cookie },
    });
    const status = (res.json() as { status: string }).status;
    if (status === "saved") break;
    if (status === "failed") throw new Error(`bench memory failed: ${res.body}`);
    await new Promise((r) => setImmediate(r));
  }
  pipelineMs.push(performance.now() - started);
}

const ai = createAi(loadConfig({ ...env, DATA_DIR: os.tmpdir() }));
const floorMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const { text } = await ai.transcriber.transcribe({
    bytes: mp3,
    filename: "r.mp3",
    contentType: "audio/mpeg",
  });
  await ai.textModel.summarize(text);
  await ai.textModel.score(text);
  await ai.textModel.tags(text, new Date());
  floorMs.push(performance.now() - started);
}

await t.cleanup();
await stub.close();
await rm(mp3Path, { force: true });

const pipeline = median(pipelineMs);
const floor = median(floorMs);
process.stdout.write(
  `pipeline, 60 s recording (${(mp3.length / 1024).toFixed(0)} KB), median of ${RUNS}: ` +
    `upload complete -> saved ${pipeline.toFixed(1)} ms; floor (the 4 provider calls alone) ${floor.toFixed(1)} ms; ` +
    `overhead ${(pipeline - floor).toFixed(1)} ms\n`,
);
