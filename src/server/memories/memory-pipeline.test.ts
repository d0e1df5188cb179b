import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { titleFromSummary, validateGeneratedTags } from "../../shared/rules";
import type { AiProviders } from "../ai/ai";
import { createAi } from "../ai/ai-factory";
import { AudioRepo } from "../audio/audio.repo";
import { AudioService } from "../audio/audio.service";
import { loadConfig } from "../config";
import { type DatabaseHandle, openDatabase } from "../db/connection";
import { JobsRepo } from "../jobs/jobs.repo";
import { type JobOutcome, JobWorker, type WorkerOptions } from "../jobs/worker";
import { LocalAudioStorage } from "../storage/local-storage";
import { speechMp3, storeAudioFixture } from "../test/audio-fixtures";
import {
  createTestDatabase,
  DATABASE_KINDS,
  makeTempDir,
  type TestDatabase,
} from "../test/harness";
import {
  chatReply,
  defaultStubHandler,
  type OpenAiStub,
  STUB_TRANSCRIPT,
  type StubHandler,
  startOpenAiStub,
  stubProviders,
} from "../test/openai-stub";
import { MemoriesRepo } from "./memories.repo";
import { toMemoryDto } from "./memory-dto";
import { MemoryPipeline, PROCESS_MEMORY_JOB } from "./memory-pipeline";

const NOW = new Date("2026-06-01T09:30:00.000Z");

/** A provider's error text with details a user must never see. */
const LEAKY_DETAIL = "whisper down: cannot open /srv/whisper/models/large-v3.bin (CUDA error 2)";
const logged: Record<string, unknown>[] = [];

function hasPocketsphinx(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v pocketsphinx_continuous"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let stub: OpenAiStub;
let mp3: Buffer;

const openAi = (): AiProviders => stubProviders(stub);

/** Fails the requests of one stage with the given reply; everything else answers normally. */
function failing(
  stage: "transcribe" | "summarize" | "score" | "tag",
  reply: ReturnType<StubHandler>,
): StubHandler {
  return (request) => {
    const isTranscription = request.path.endsWith("/audio/transcriptions");
    const json = request.json?.response_format !== undefined;
    const system = JSON.stringify(request.json?.messages ?? []);
    const which = isTranscription
      ? "transcribe"
      : !json
        ? "summarize"
        : system.includes('\\"tags\\"')
          ? "tag"
          : "score";
    return which === stage ? reply : defaultStubHandler(request);
  };
}

/** A memory in state 'processing' with its job queued, as the processing service makes one. */
async function queueMemory(
  handle: DatabaseHandle,
  audioId: string,
  anonOwnerHash: string,
  recordedAt: string,
) {
  const memories = new MemoriesRepo(handle.db, handle.kind);
  const jobs = new JobsRepo(handle.db, handle.kind);
  return handle.db.transaction().execute(async (trx) => {
    const row = await memories.insert(
      {
        userId: null,
        anonOwnerHash,
        audioId,
        recordedAt,
        status: "processing",
        stage: "transcribe",
      },
      trx,
    );
    await jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: row.id }, trx);
    return row;
  });
}

function audioOf(handle: DatabaseHandle, storage: LocalAudioStorage): AudioService {
  return new AudioService(new AudioRepo(handle.db), storage);
}

beforeAll(async () => {
  stub = await startOpenAiStub();
  mp3 = await speechMp3("Today we went to the beach with grandpa.");
});
afterAll(async () => {
  await stub.close();
});

describe.each(DATABASE_KINDS)("MemoryPipeline on %s", (kind) => {
  let testDb: TestDatabase;
  let storageDir: string;
  let storage: LocalAudioStorage;
  let memories: MemoriesRepo;
  let jobs: JobsRepo;
  let worker: JobWorker;

  async function newMemory() {
    const audio = await storeAudioFixture(testDb.handle, storage, mp3);
    const row = await queueMemory(
      testDb.handle,
      audio.id,
      "visitor-hash",
      "2026-05-31T18:00:00.000Z",
    );
    return { id: row.id, audio };
  }

  async function memory(id: string) {
    const row = await memories.findById(id);
    if (!row) throw new Error("missing");
    return toMemoryDto(row);
  }

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    storageDir = await makeTempDir("vmj-audio-");
    storage = new LocalAudioStorage(storageDir);
    memories = new MemoriesRepo(testDb.handle.db, kind);
    jobs = new JobsRepo(testDb.handle.db, kind);
    worker = new JobWorker(
      jobs,
      {
        [PROCESS_MEMORY_JOB]: new MemoryPipeline(
          memories,
          audioOf(testDb.handle, storage),
          openAi(),
          {
            now: () => NOW,
            log: { warn: (details, message) => logged.push({ ...details, message }) },
          },
        ),
      },
      { concurrency: 1 },
    );
  });
  afterAll(async () => {
    await testDb.cleanup();
    await rm(storageDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    stub.handle(defaultStubHandler);
    stub.requests.length = 0;
    logged.length = 0;
  });

  it("takes a recording to a saved memory through every stage", async () => {
    const { id } = await newMemory();
    expect((await memory(id)).status).toBe("processing");
    expect(await worker.drain()).toBe(1);
    const saved = await memory(id);
    expect(saved).toMatchObject({
      status: "saved",
      stage: null,
      error: null,
      transcript: "Today we went to the beach with Grandpa and you built a sandcastle.",
      summary:
        "I will always remember our day at the beach with Grandpa. You built the best sandcastle, my love.",
      title: "I will always remember our day at the beach with Grandpa.",
      duration: mp3.length / 16000,
      recordedAt: "2026-05-31T18:00:00.000Z",
      tags: ["beach day", "grandpa", "sandcastle"],
      scores: {
        meaningfulness: 8,
        cuteness: 7,
        excitement: 6,
        interest: 7,
        uniqueness: 5,
        overall: 7,
      },
    });
    expect(saved.title).toBe(titleFromSummary(saved.summary));
    // The tag step is given the current time.
    expect(JSON.stringify(stub.requests.at(-1)?.json?.messages)).toContain(NOW.toISOString());
    expect((await jobs.find(PROCESS_MEMORY_JOB, id))?.status).toBe("done");
  });

  it.each([
    [
      "transcribe",
      failing("transcribe", { status: 500, body: { error: { message: LEAKY_DETAIL } } }),
      "transcribe.failed",
    ],
    ["summarize", failing("summarize", chatReply("")), "summarize.failed"],
    ["score", failing("score", chatReply('{"overall": 7, "cute')), "score.failed"],
    [
      "tag",
      failing("tag", chatReply(JSON.stringify({ tags: ["Beach!", "grandpa"] }))),
      "tag.invalid_format",
    ],
  ] as const)(
    "a failing %s stage leaves the audio, state failed, the stage and its error code",
    async (stage, handler, code) => {
      stub.handle(handler);
      const { id, audio } = await newMemory();
      await worker.drain();
      const failed = await memory(id);
      expect(failed.status).toBe("failed");
      expect(failed.stage).toBe(stage);
      expect(failed.error).toBe(code);
      expect(failed.audioUrl).toBe(`/api/audio/${audio.id}`);
      expect(await storage.size(audio.storageKey)).toBe(mp3.length);
      // Earlier stages' outputs are kept.
      if (stage !== "transcribe") expect(failed.transcript).toContain("beach");
      if (stage === "score" || stage === "tag") expect(failed.summary).not.toBe("");
      // The job is finished: failures wait for the owner's retry instead of looping.
      expect((await jobs.find(PROCESS_MEMORY_JOB, id))?.status).toBe("done");
    },
  );

  it("shows the owner a product message and logs the provider's raw error", async () => {
    stub.handle(failing("transcribe", { status: 500, body: { error: { message: LEAKY_DETAIL } } }));
    const { id } = await newMemory();
    await worker.drain();
    const failed = await memory(id);
    expect(failed.error).toBe("transcribe.failed");
    expect(failed.error).not.toContain("/srv");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ memoryId: id, stage: "transcribe" });
    expect((logged[0]?.err as Error | undefined)?.message).toContain(
      "/srv/whisper/models/large-v3.bin",
    );
  });

  it("shows a product message when the queue gives up, whatever the error said", async () => {
    const { id } = await newMemory();
    const pipeline = new MemoryPipeline(memories, audioOf(testDb.handle, storage), openAi(), {
      now: () => NOW,
    });
    await pipeline.giveUp(id, new Error(`connect ECONNREFUSED 10.0.0.7:5432 (${LEAKY_DETAIL})`));
    const failed = await memory(id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("transcribe.failed");
    await worker.drain();
  });

  it("says no speech was detected for a blank transcript", async () => {
    stub.handle(failing("transcribe", { body: { text: "  \n " } }));
    const { id } = await newMemory();
    await worker.drain();
    expect(await memory(id)).toMatchObject({
      status: "failed",
      stage: "transcribe",
      error: "transcribe.no_speech",
    });
  });

  it("a retry resumes at the failed stage, keeping what earlier stages produced", async () => {
    stub.handle(failing("score", { status: 500, body: { error: { message: "busy" } } }));
    const { id } = await newMemory();
    await worker.drain();
    expect((await memory(id)).stage).toBe("score");

    stub.handle(defaultStubHandler);
    stub.requests.length = 0;
    const resume = () =>
      testDb.handle.db.transaction().execute(async (trx) => {
        if (!(await memories.resumeFailed(id, trx))) return false;
        await jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: id }, trx);
        return true;
      });
    expect(await resume()).toBe(true);
    expect(await resume()).toBe(false);
    expect(await memory(id)).toMatchObject({ status: "processing", stage: "score", error: null });
    await worker.drain();
    expect(await memory(id)).toMatchObject({
      status: "saved",
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    // Only the score and tag calls ran again: no new transcription or summary.
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests.every((r) => r.json?.response_format !== undefined)).toBe(true);
  });

  it("a retry after the owner typed the transcript keeps their words and makes the rest from them", async () => {
    stub.handle(failing("transcribe", { status: 500, body: { error: { message: "down" } } }));
    const { id } = await newMemory();
    await worker.drain();
    expect(await memory(id)).toMatchObject({ status: "failed", stage: "transcribe" });
    const theirs = "Grandpa and you built a sandcastle at the beach.";
    expect(
      await memories.update(id, {
        title: "",
        transcript: theirs,
        summary: "",
        recordedAt: NOW.toISOString(),
        tags: [],
      }),
    ).toMatchObject({ transcript_edited: 1 });

    stub.handle(defaultStubHandler);
    await testDb.handle.db.transaction().execute(async (trx) => {
      expect(await memories.resumeFailed(id, trx)).toBe(true);
      await jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: id }, trx);
    });
    await worker.drain();
    const row = await memories.findById(id);
    expect(row).toMatchObject({
      status: "saved",
      transcript: theirs,
      proposed_transcript: STUB_TRANSCRIPT,
      proposed_engine: "whisper-1",
    });
    expect(row?.summary).not.toBe("");
    expect(JSON.parse(row?.tags ?? "[]")).toEqual(["beach day", "grandpa", "sandcastle"]);
  });

  it("leaves a deleted memory's job alone", async () => {
    const { id } = await newMemory();
    await testDb.handle.db.transaction().execute((trx) => memories.delete(id, trx));
    expect(await worker.drain()).toBe(1);
    expect(stub.requests).toHaveLength(0);
  });
});

describe("fully offline (the local provider)", () => {
  let testDb: TestDatabase;
  let storageDir: string;

  beforeAll(async () => {
    testDb = await createTestDatabase("sqlite");
    storageDir = await makeTempDir("vmj-audio-");
  });
  afterAll(async () => {
    await testDb.cleanup();
    await rm(storageDir, { recursive: true, force: true });
  });

  // CI installs pocketsphinx (.ci/run); without it the transcriber's own test covers the message.
  it.runIf(hasPocketsphinx())(
    "turns espeak-ng speech into a saved memory that follows every rule",
    async () => {
      const storage = new LocalAudioStorage(storageDir);
      const memories = new MemoriesRepo(testDb.handle.db, "sqlite");
      const jobs = new JobsRepo(testDb.handle.db, "sqlite");
      const audio = await storeAudioFixture(testDb.handle, storage, mp3);
      const row = await queueMemory(testDb.handle, audio.id, "v", NOW.toISOString());
      // No Whisper model in this DATA_DIR: the pocketsphinx fallback.
      const ai = createAi(
        loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", DATA_DIR: storageDir }),
      );
      const worker = new JobWorker(
        jobs,
        {
          [PROCESS_MEMORY_JOB]: new MemoryPipeline(memories, audioOf(testDb.handle, storage), ai, {
            now: () => NOW,
          }),
        },
        { concurrency: 1 },
      );
      await worker.drain();
      const saved = toMemoryDto((await memories.findById(row.id)) ?? row);
      expect(saved.status).toBe("saved");
      expect(saved.transcript).toMatch(/beach/);
      // A one-line recording is its own summary: never longer than what was said (ADR 0022).
      expect(saved.summary).toMatch(/beach/i);
      expect(saved.summary.length).toBeLessThanOrEqual(saved.transcript.length);
      expect(saved.title).toBe(titleFromSummary(saved.summary));
      expect(validateGeneratedTags(saved.tags)).toEqual(saved.tags);
      for (const value of Object.values(saved.scores)) {
        expect(Number.isInteger(value) && value >= 1 && value <= 10).toBe(true);
      }
    },
    60_000,
  );
});

describe("two workers on PostgreSQL", () => {
  let testDb: TestDatabase;
  let second: DatabaseHandle;
  let storageDir: string;

  beforeAll(async () => {
    testDb = await createTestDatabase("postgres");
    second = await openDatabase(testDb.target);
    storageDir = await makeTempDir("vmj-audio-");
  });
  afterAll(async () => {
    await second.close();
    await testDb.cleanup();
    await rm(storageDir, { recursive: true, force: true });
  });

  it("never process one memory twice", async () => {
    const storage = new LocalAudioStorage(storageDir);
    const repoA = new MemoriesRepo(testDb.handle.db, "postgres");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const audio = await storeAudioFixture(testDb.handle, storage, mp3);
      const row = await queueMemory(testDb.handle, audio.id, "v", NOW.toISOString());
      ids.push(row.id);
    }
    // Count the transcription calls: one per memory means no memory ran twice.
    let transcriptions = 0;
    stub.handle((request) => {
      if (request.path.endsWith("/audio/transcriptions")) {
        transcriptions++;
        return { delayMs: 20, body: { text: "We went to the beach." } };
      }
      return defaultStubHandler(request);
    });
    const make = (handle: DatabaseHandle) =>
      new JobWorker(
        new JobsRepo(handle.db, "postgres"),
        {
          [PROCESS_MEMORY_JOB]: new MemoryPipeline(
            new MemoriesRepo(handle.db, "postgres"),
            audioOf(handle, storage),
            openAi(),
          ),
        },
        { concurrency: 3, pollMs: 20 },
      );
    const a = make(testDb.handle);
    const b = make(second);
    a.start();
    b.start();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await Promise.all(ids.map((id) => repoA.findById(id)));
      if (rows.every((row) => row?.status === "saved") || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all([a.stop(), b.stop()]);
    const rows = await Promise.all(ids.map((id) => repoA.findById(id)));
    expect(rows.map((row) => row?.status)).toEqual(ids.map(() => "saved"));
    expect(transcriptions).toBe(ids.length);
    const chat = stub.requests.filter((r) => r.path.endsWith("/chat/completions"));
    expect(chat).toHaveLength(ids.length * 3);
  });
});

/** A's lease renewals stall while `stalled` (a hung connection, a paused process): it lapses. */
class StallingJobsRepo extends JobsRepo {
  stalled = false;
  override async extendLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    while (this.stalled) await new Promise((r) => setTimeout(r, 10));
    return super.extendLease(id, workerId, leaseMs);
  }
}

describe.each(DATABASE_KINDS)("a worker that lost its lease on %s", (kind) => {
  let testDb: TestDatabase;
  let second: DatabaseHandle;
  let storageDir: string;

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    second = await openDatabase(testDb.target);
    storageDir = await makeTempDir("vmj-audio-");
  });
  afterAll(async () => {
    await second.close();
    await testDb.cleanup();
    await rm(storageDir, { recursive: true, force: true });
  });

  it("stops its provider call and never writes; the worker that took over does the work", async () => {
    const storage = new LocalAudioStorage(storageDir);
    const memoriesA = new MemoriesRepo(testDb.handle.db, kind);
    const jobsA = new StallingJobsRepo(testDb.handle.db, kind);
    const audio = await storeAudioFixture(testDb.handle, storage, mp3);
    const row = await queueMemory(testDb.handle, audio.id, "v", NOW.toISOString());
    // A's transcription hangs until A hangs up, which only its lost lease makes it do (its own
    // timeout is past the test's); B's (the second) answers at once.
    let transcriptions = 0;
    stub.requests.length = 0;
    stub.handle((request) => {
      if (!request.path.endsWith("/audio/transcriptions")) return defaultStubHandler(request);
      transcriptions++;
      return transcriptions === 1
        ? { delayMs: 60_000, body: { text: "Worker A heard this." } }
        : { body: { text: "Worker B heard this at the beach." } };
    });
    let aEnded!: (outcome: JobOutcome) => void;
    const aOutcome = new Promise<JobOutcome>((resolve) => {
      aEnded = resolve;
    });
    const worker = (
      jobs: JobsRepo,
      handle: DatabaseHandle,
      options: Partial<WorkerOptions>,
      ai: AiProviders,
    ) =>
      new JobWorker(
        jobs,
        {
          [PROCESS_MEMORY_JOB]: new MemoryPipeline(
            new MemoriesRepo(handle.db, kind),
            audioOf(handle, storage),
            ai,
          ),
        },
        { concurrency: 1, pollMs: 20, ...options },
      );
    const a = worker(
      jobsA,
      testDb.handle,
      { leaseMs: 400, observer: { jobFinished: (_kind, outcome) => aEnded(outcome) } },
      stubProviders(stub, { timeoutMs: 60_000 }),
    );
    const b = worker(new JobsRepo(second.db, kind), second, { leaseMs: 60_000 }, openAi());
    a.start();
    const deadline = Date.now() + 15_000;
    while (stub.requests.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    jobsA.stalled = true;
    b.start();
    while ((await memoriesA.findById(row.id))?.status !== "saved" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    jobsA.stalled = false;
    // A's next heartbeat finds the lease lost and hangs up; without that, A would wait past the
    // test's timeout.
    expect(await aOutcome).toBe("abandoned");
    await a.stop(5_000);
    await b.stop();

    const [first] = stub.requests;
    expect(first?.path).toMatch(/\/audio\/transcriptions$/);
    // The stub learns of the closed connection a moment after A's abort (later on a loaded machine).
    await expect.poll(() => first?.aborted, { timeout: 5_000 }).toBe(true);
    expect(transcriptions).toBe(2);
    // Only B's summary, score and tag calls: A made none after its lease was lost.
    expect(stub.requests.filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(3);
    expect(toMemoryDto((await memoriesA.findById(row.id)) ?? row)).toMatchObject({
      status: "saved",
      error: null,
      transcript: "Worker B heard this at the beach.",
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    expect(await jobsA.find(PROCESS_MEMORY_JOB, row.id)).toMatchObject({
      status: "done",
      last_error: null,
    });
  }, 20_000);
});
