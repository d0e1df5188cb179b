import { execFileSync } from "node:child_process";
import { chmod, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { makeTempDir } from "../test/harness";
import { describeAi } from "./ai-status";

function installedPocketsphinx(): string | null {
  try {
    return execFileSync("sh", ["-c", "command -v pocketsphinx_continuous"]).toString().trim();
  } catch {
    return null;
  }
}

describe("describeAi", () => {
  let dir: string;
  let engine: string;

  beforeAll(async () => {
    dir = await makeTempDir("vmj-ai-status-");
    // The real engine when installed; otherwise a stand-in that runs and exits 0.
    engine = installedPocketsphinx() ?? path.join(dir, "pocketsphinx_continuous");
    if (engine.startsWith(dir)) {
      await writeFile(engine, "#!/bin/sh\nexit 0\n");
      await chmod(engine, 0o755);
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names the local provider and its engine, with no warning when both programs run", async () => {
    const status = await describeAi(
      loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", POCKETSPHINX_BIN: engine }),
    );
    expect(status).toEqual({
      provider: "local",
      speechEngine: `pocketsphinx (${engine})`,
      textModel: "wink-nlp (offline)",
      warnings: [],
    });
  });

  it("warns, saying how to fix it, when the configured speech engine is missing", async () => {
    const missing = path.join(dir, "no-such-engine");
    const status = await describeAi(
      loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", POCKETSPHINX_BIN: missing }),
    );
    expect(status.provider).toBe("local");
    expect(status.warnings).toHaveLength(1);
    expect(status.warnings[0]).toContain(missing);
    expect(status.warnings[0]).toContain("apt-get install pocketsphinx pocketsphinx-en-us");
  });

  it("warns when the engine is a file that cannot be run", async () => {
    const notExecutable = path.join(dir, "not-executable");
    await writeFile(notExecutable, "#!/bin/sh\nexit 0\n");
    const status = await describeAi(
      loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", POCKETSPHINX_BIN: notExecutable }),
    );
    expect(status.warnings).toHaveLength(1);
    expect(status.warnings[0]).toContain(notExecutable);
  });

  it("warns when ffmpeg is missing, for either provider", async () => {
    const noFfmpeg = async (command: string) => command !== "ffmpeg";
    const local = await describeAi(
      loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", POCKETSPHINX_BIN: engine }),
      noFfmpeg,
    );
    expect(local.warnings).toEqual([expect.stringMatching(/cannot be transcribed: ffmpeg/)]);
    const openai = await describeAi(
      loadConfig({ NODE_ENV: "test", OPENAI_API_KEY: "sk-x" }),
      noFfmpeg,
    );
    expect(openai.warnings).toEqual([expect.stringMatching(/over 25 MB .*ffmpeg/)]);
  });

  it("names the OpenAI models and where they are served, never the key, with no network call", async () => {
    const status = await describeAi(
      loadConfig({
        NODE_ENV: "test",
        AI_PROVIDER: "openai",
        OPENAI_API_KEY: "sk-secret",
        OPENAI_BASE_URL: "http://user:pass@127.0.0.1:9/v1/",
        OPENAI_TRANSCRIPTION_BASE_URL: "http://127.0.0.1:9/whisper/v1",
      }),
    );
    expect(status).toEqual({
      provider: "openai",
      speechEngine: "whisper-1 at http://127.0.0.1:9/whisper/v1",
      textModel: "gpt-4o at http://127.0.0.1:9/v1",
      warnings: [],
    });
    expect(JSON.stringify(status)).not.toMatch(/sk-secret|pass/);
    const official = await describeAi(loadConfig({ NODE_ENV: "test", OPENAI_API_KEY: "sk-x" }));
    expect(official.speechEngine).toBe("whisper-1 at https://api.openai.com/v1");
  });

  it("warns when OpenAI is chosen with neither a key nor a server", async () => {
    const status = await describeAi({
      ...loadConfig({ NODE_ENV: "test" }),
      aiProvider: "openai",
    });
    expect(status.warnings).toEqual([expect.stringMatching(/OPENAI_API_KEY/)]);
  });
});
