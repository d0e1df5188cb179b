import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { makeTempDir } from "../test/harness";
import { createAi, LocalTranscriber } from "./ai-factory";

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
  it("is Whisper as soon as WHISPER_MODEL's file is there, else the pocketsphinx fallback", async () => {
    const dir = await makeTempDir("vmj-factory-");
    try {
      const local = (env: Record<string, string>) => {
        const { transcriber } = createAi(
          loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", DATA_DIR: dir, ...env }),
        );
        expect(transcriber).toBeInstanceOf(LocalTranscriber);
        return transcriber as LocalTranscriber;
      };
      expect(local({}).hasWhisper()).toBe(false);
      const model = path.join(dir, "ggml-small.bin");
      const byPath = local({ WHISPER_MODEL: model });
      expect(byPath.hasWhisper()).toBe(false);
      await writeFile(model, "a model");
      // The same transcriber: a model that appears is used without a restart.
      expect(byPath.hasWhisper()).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
