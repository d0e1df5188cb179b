import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { makeTempDir } from "../test/harness";
import { createAi } from "./ai-factory";
import { PocketsphinxTranscriber } from "./providers/local";
import { WhisperTranscriber } from "./whisper/whisper-transcriber";

describe("createAi", () => {
  it("uses the local provider when no key is configured", () => {
    expect(createAi(loadConfig({ NODE_ENV: "test" })).name).toBe("local");
  });
  it("uses OpenAI when a key is configured", () => {
    expect(createAi(loadConfig({ NODE_ENV: "test", OPENAI_API_KEY: "sk-x" })).name).toBe("openai");
  });
  it("lets AI_PROVIDER choose a self-hosted server without a key", () => {
    const config = loadConfig({
      NODE_ENV: "test",
      AI_PROVIDER: "openai",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
    });
    expect(createAi(config).name).toBe("openai");
    expect(createAi(loadConfig({ AI_PROVIDER: "local", OPENAI_API_KEY: "sk-x" })).name).toBe(
      "local",
    );
  });
});

describe("the local provider's speech engine", () => {
  it("is Whisper when WHISPER_MODEL's file is there, else the pocketsphinx fallback", async () => {
    const dir = await makeTempDir("vmj-factory-");
    try {
      const local = (env: Record<string, string>) =>
        createAi(loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", DATA_DIR: dir, ...env }))
          .transcriber;
      expect(local({})).toBeInstanceOf(PocketsphinxTranscriber);
      const model = path.join(dir, "ggml-small.bin");
      expect(local({ WHISPER_MODEL: model })).toBeInstanceOf(PocketsphinxTranscriber);
      await writeFile(model, "a model");
      expect(local({ WHISPER_MODEL: model })).toBeInstanceOf(WhisperTranscriber);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
