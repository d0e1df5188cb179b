import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speechMp3 } from "../../test/audio-fixtures";
import { makeTempDir } from "../../test/harness";
import { testModelBytes } from "../../test/whisper-model";
import { run } from "../audio-split";
import { type WhisperOptions, WhisperTranscriber } from "./whisper-transcriber";

// The real engine (whisper.cpp in its own process) on a generated model with random weights: the
// text it produces is noise and is never asserted; loading, isolation, limits and crashes are real.
describe("WhisperTranscriber", () => {
  let dir: string;
  let model: string;
  let modelBytes: Buffer;
  let speech: Buffer;
  let silence: Buffer;
  let noise: Buffer;

  const audio = (bytes: Buffer) => ({ bytes, filename: "memory.mp3", contentType: "audio/mpeg" });
  const transcriber = (options: Partial<WhisperOptions> = {}) =>
    new WhisperTranscriber({ model, threads: 1, timeoutMs: 120_000, ...options });
  /** Whether a process is still there. */
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    dir = await makeTempDir("vmj-whisper-");
    model = path.join(dir, "ggml-test.bin");
    modelBytes = testModelBytes();
    await writeFile(model, modelBytes);
    speech = await speechMp3("Today you said your very first word. It was doggy.");
    const tone = async (name: string, source: string) => {
      const file = path.join(dir, name);
      await run("ffmpeg", [
        "-loglevel",
        "error",
        "-f",
        "lavfi",
        "-i",
        source,
        "-t",
        "4",
        "-ac",
        "1",
        file,
      ]);
      return readFile(file);
    };
    silence = await tone("silence.mp3", "anullsrc=r=44100:cl=mono");
    // A fan or a hum: loud but steady.
    noise = await tone("noise.mp3", "anoisesrc=r=44100:a=0.2:c=pink");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("transcribes speech in a separate process and keeps the detected language", async () => {
    let enginePid = 0;
    const result = await transcriber({ onEngineStart: (pid) => (enginePid = pid) }).transcribe(
      audio(speech),
    );
    expect(enginePid).toBeGreaterThan(0);
    expect(enginePid).not.toBe(process.pid);
    expect(alive(enginePid)).toBe(false);
    expect(typeof result.text).toBe("string");
    expect(result.duration).toBe(speech.length / 16000);
    if (result.text) expect(result.language).toMatch(/^[a-z]{2,3}$/);
    expect(result.engine).toMatch(/^whisper\.cpp \S+\.bin$/);
    // whisper.cpp's segments (the words are noise): in order, inside the audio, the text's words.
    if (result.text) {
      const segments = result.segments ?? [];
      expect(segments.length).toBeGreaterThan(0);
      expect(
        segments
          .map((s) => s.text)
          .join(" ")
          .replace(/\s+/g, ""),
      ).toBe(result.text.replace(/\s+/g, ""));
      for (const s of segments) expect(s.end).toBeGreaterThanOrEqual(s.start);
    }
  }, 120_000);

  it.each([
    ["silence", () => silence],
    ["steady noise", () => noise],
  ])("answers %s with no text and never gives it to Whisper", async (_name, bytes) => {
    let report: { speech: boolean; loadMs: number } | null = null;
    const result = await transcriber({
      onEngineDone: (stats) => {
        report = stats;
      },
    }).transcribe(audio(bytes()));
    expect(result.text).toBe("");
    expect(result.language).toBeUndefined();
    expect(report).toMatchObject({ speech: false, loadMs: 0 });
  });

  it("fails with the stage's prefix when the model is missing", async () => {
    const missing = path.join(dir, "no-such-model.bin");
    await expect(transcriber({ model: missing }).transcribe(audio(speech))).rejects.toThrow(
      /^Transcription failed: the Whisper model .*no-such-model\.bin is missing/,
    );
  });

  it.each([
    ["truncated", () => modelBytes.subarray(0, 100_000)],
    ["not a model", () => Buffer.from("<html>Not found</html>")],
    ["cut inside a tensor", () => modelBytes.subarray(0, modelBytes.length - 10)],
  ])(
    "fails that job only when the model is corrupt (%s)",
    async (name, bytes) => {
      const corrupt = path.join(dir, `corrupt-${name.replace(/\s/g, "-")}.bin`);
      await writeFile(corrupt, bytes());
      await expect(transcriber({ model: corrupt }).transcribe(audio(speech))).rejects.toThrow(
        /^Transcription failed: .*(is cut short|is not a whisper\.cpp model)/,
      );
    },
    60_000,
  );

  it("fails the job when the engine is killed", async () => {
    const error = await transcriber({ onEngineStart: (pid) => process.kill(pid, "SIGKILL") })
      .transcribe(audio(speech))
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^Transcription failed: the Whisper engine stopped \(SIGKILL\)/,
    );
  });

  it("kills an engine that runs past its time limit", async () => {
    let enginePid = 0;
    // The engine is paused as it starts, so it runs past its limit however fast this machine is.
    const pauseEngine = (pid: number) => {
      enginePid = pid;
      process.kill(pid, "SIGSTOP");
    };
    const error = await transcriber({ timeoutMs: 300, onEngineStart: pauseEngine })
      .transcribe(audio(speech))
      .catch((e: Error) => e);
    expect((error as Error).message).toBe(
      "Transcription failed: the Whisper engine took longer than 0 s",
    );
    expect(alive(enginePid)).toBe(false);
  });

  it("kills the engine when its signal is aborted, rejecting with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("lease lost");
    let enginePid = 0;
    const pending = transcriber({
      onEngineStart: (pid) => {
        enginePid = pid;
        // Paused first, so the abort finds it running however fast this machine is.
        process.kill(pid, "SIGSTOP");
        controller.abort(reason);
      },
    })
      .transcribe(audio(speech), { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(await pending).toBe(reason);
    expect(enginePid).toBeGreaterThan(0);
    expect(alive(enginePid)).toBe(false);
  });
});
