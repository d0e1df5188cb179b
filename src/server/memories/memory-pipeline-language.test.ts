import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AiProviders, TextModel, TextOptions } from "../ai/ai";
import type { AudioService } from "../audio/audio.service";
import { createTestDatabase, type TestDatabase } from "../test/harness";
import { MemoriesRepo, type MemoryRow } from "./memories.repo";
import { MemoryPipeline } from "./memory-pipeline";

/** A text model that answers validly and remembers the options of every call. */
function recordingTextModel(): { model: TextModel; calls: TextOptions[] } {
  const calls: TextOptions[] = [];
  const model: TextModel = {
    async summarize(_transcript, options = {}) {
      calls.push(options);
      return "Fuimos a la playa. Te quiero.";
    },
    async score(_transcript, options = {}) {
      calls.push(options);
      return {
        meaningfulness: 5,
        cuteness: 5,
        excitement: 5,
        interest: 5,
        uniqueness: 5,
        overall: 5,
      };
    },
    async tags(_transcript, _now, options = {}) {
      calls.push(options);
      return ["playa", "abuelo", "castillo"];
    },
  };
  return { model, calls };
}

describe("the pipeline tells the text model the spoken language", () => {
  let testDb: TestDatabase;
  let repo: MemoriesRepo;
  beforeAll(async () => {
    testDb = await createTestDatabase("sqlite");
    repo = new MemoriesRepo(testDb.handle.db, "sqlite");
  });
  afterAll(async () => {
    await testDb.cleanup();
  });

  const run = async (language: string | undefined) => {
    const row = await repo.insert({
      userId: null,
      audioId: null,
      transcript: "Fuimos a la playa con el abuelo.",
      status: "processing",
      stage: "summarize",
    });
    // The speech engine keeps the language on the memory (a `language` column).
    const memories = Object.create(repo) as MemoriesRepo;
    memories.findById = async (id: string) => {
      const found = await repo.findById(id);
      return found && language ? ({ ...found, language } as MemoryRow) : found;
    };
    const { model, calls } = recordingTextModel();
    const ai = { name: "local", transcriber: {}, textModel: model } as unknown as AiProviders;
    const audio = {} as Pick<AudioService, "findById" | "open">;
    await new MemoryPipeline(memories, audio, ai).run(row.id);
    expect((await repo.findById(row.id))?.status).toBe("saved");
    return calls;
  };

  it("passes the memory's language to summary, scores and tags when it is known", async () => {
    const calls = await run("es");
    expect(calls).toHaveLength(3);
    for (const options of calls) {
      expect(options.language).toBe("es");
      expect(options.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it("passes none when it is not, so the model detects it", async () => {
    const calls = await run(undefined);
    expect(calls).toHaveLength(3);
    for (const options of calls) expect(options).not.toHaveProperty("language");
  });
});
