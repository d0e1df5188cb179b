import { execFileSync } from "node:child_process";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { makeTempDir } from "../test/harness";
import { testModelBytes } from "../test/whisper-model";
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
  let FALLBACK_WARNING: string;

  beforeAll(async () => {
    dir = await makeTempDir("vmj-ai-status-");
    FALLBACK_WARNING = `No Whisper model at ${path.join(dir, "models", "ggml-base.bin")} (WHISPER_MODEL=base): speech recognition falls back to pocketsphinx, which gets about a third of the words wrong. Run \`npm run models -- download base\` (or \`npm run models -- download tiny\` on a small machine); it is used from the next recording`;
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

  it("falls back to pocketsphinx while the Whisper model is being downloaded, without a warning", async () => {
    const status = await describeAi(
      loadConfig({
        NODE_ENV: "test",
        AI_PROVIDER: "local",
        POCKETSPHINX_BIN: engine,
        DATA_DIR: dir,
      }),
    );
    expect(status).toEqual({
      provider: "local",
      speechEngine: `pocketsphinx (${engine}), until the Whisper model is downloaded`,
      textModel: "wink-nlp (offline)",
      warnings: [],
    });
  });

  it("falls back to pocketsphinx without a Whisper model nor its download, saying so with the command to run", async () => {
    const status = await describeAi(
      loadConfig({
        NODE_ENV: "test",
        AI_PROVIDER: "local",
        POCKETSPHINX_BIN: engine,
        DATA_DIR: dir,
        WHISPER_AUTO_DOWNLOAD: "false",
      }),
    );
    expect(status).toEqual({
      provider: "local",
      speechEngine: `pocketsphinx (${engine})`,
      textModel: "wink-nlp (offline)",
      warnings: [FALLBACK_WARNING],
    });
    expect(FALLBACK_WARNING).toContain(path.join(dir, "models", "ggml-base.bin"));
    expect(FALLBACK_WARNING).toContain("`npm run models -- download base`");
  });

  it("names Whisper and its model once the model is in DATA_DIR/models, with no warning", async () => {
    const withModel = path.join(dir, "with-model");
    await mkdir(path.join(withModel, "models"), { recursive: true });
    await writeFile(path.join(withModel, "models", "ggml-tiny.bin"), testModelBytes());
    const config = {
      NODE_ENV: "test",
      AI_PROVIDER: "local",
      WHISPER_MODEL: "tiny",
      WHISPER_THREADS: "2",
      DATA_DIR: withModel,
      // Not used with a model: it is not even checked.
      POCKETSPHINX_BIN: path.join(dir, "no-such-engine"),
    };
    expect(await describeAi(loadConfig(config))).toEqual({
      provider: "local",
      speechEngine: "whisper.cpp (ggml-tiny.bin, 2 threads)",
      textModel: "wink-nlp (offline)",
      warnings: [],
    });
    // A path works as well as a name.
    const byPath = await describeAi(
      loadConfig({ ...config, WHISPER_MODEL: path.join(withModel, "models", "ggml-tiny.bin") }),
    );
    expect(byPath.speechEngine).toBe("whisper.cpp (ggml-tiny.bin, 2 threads)");
  });

  it("warns when the Whisper model is damaged, with the command that fetches it again", async () => {
    const damaged = path.join(dir, "damaged");
    await mkdir(path.join(damaged, "models"), { recursive: true });
    await writeFile(
      path.join(damaged, "models", "ggml-base.bin"),
      testModelBytes().subarray(0, 200_000),
    );
    const status = await describeAi(
      loadConfig({ NODE_ENV: "test", AI_PROVIDER: "local", DATA_DIR: damaged }),
    );
    expect(status.speechEngine).toMatch(/^whisper\.cpp \(ggml-base\.bin/);
    expect(status.warnings).toEqual([
      expect.stringMatching(
        /cannot be transcribed: .*ggml-base\.bin is cut short.*`npm run models -- download base`/,
      ),
    ]);
  });

  it("warns, saying how to fix it, when the configured speech engine is missing", async () => {
    const missing = path.join(dir, "no-such-engine");
    const status = await describeAi(
      loadConfig({
        WHISPER_AUTO_DOWNLOAD: "false",
        NODE_ENV: "test",
        AI_PROVIDER: "local",
        POCKETSPHINX_BIN: missing,
        DATA_DIR: dir,
      }),
    );
    expect(status.provider).toBe("local");
    expect(status.warnings).toHaveLength(2);
    expect(status.warnings[0]).toBe(FALLBACK_WARNING);
    expect(status.warnings[1]).toContain(missing);
    expect(status.warnings[1]).toContain("apt-get install pocketsphinx pocketsphinx-en-us");
  });

  it("warns when the engine is a file that cannot be run", async () => {
    const notExecutable = path.join(dir, "not-executable");
    await writeFile(notExecutable, "#!/bin/sh\nexit 0\n");
    const status = await describeAi(
      loadConfig({
        WHISPER_AUTO_DOWNLOAD: "false",
        NODE_ENV: "test",
        AI_PROVIDER: "local",
        POCKETSPHINX_BIN: notExecutable,
        DATA_DIR: dir,
      }),
    );
    expect(status.warnings).toHaveLength(2);
    expect(status.warnings[1]).toContain(notExecutable);
  });

  it("warns when ffmpeg is missing, for either provider", async () => {
    const noFfmpeg = async (command: string) => command !== "ffmpeg";
    const local = await describeAi(
      loadConfig({
        WHISPER_AUTO_DOWNLOAD: "false",
        NODE_ENV: "test",
        AI_PROVIDER: "local",
        POCKETSPHINX_BIN: engine,
        DATA_DIR: dir,
      }),
      noFfmpeg,
    );
    expect(local.warnings).toEqual([
      FALLBACK_WARNING,
      expect.stringMatching(/cannot be transcribed: ffmpeg/),
    ]);
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
