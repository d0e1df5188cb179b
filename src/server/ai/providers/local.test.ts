import { execFileSync } from "node:child_process";
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCORE_DIMENSIONS } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { titleFromSummary, validateGeneratedTags } from "../../../shared/rules";
import { makeTempDir } from "../../test/harness";
import { run } from "../audio-split";
import { LocalTextModel, PocketsphinxTranscriber } from "./local";

// Real transcripts of the kind families record (and one rough offline-engine transcript).
const TRANSCRIPTS = [
  "Today we went to the beach with Grandpa. You built a huge sandcastle and laughed from ear to ear! I will never forget how happy you were.",
  "This morning you took your very first steps in the kitchen. You held onto the chair, let go, and walked three wobbly steps to your dad. We all cheered and you clapped your little hands. Your dad cried a little. I am so proud of you.",
  "It was your fifth birthday and it rained all day, so we built a blanket fort in the living room, ate chocolate cake inside it and read dinosaur books until you fell asleep.",
  "the the beach we are on the oldest on fossil",
  "hello",
];

describe("LocalTextModel", () => {
  const model = new LocalTextModel();
  const now = new Date("2026-11-22T12:00:00.000Z");

  it.each(TRANSCRIPTS)("follows every output rule for %j", async (transcript) => {
    const summary = await model.summarize(transcript);
    // Addressed to the child, in the recorder's voice, warm.
    expect(summary).toMatch(/\byou\b/i);
    expect(summary).toMatch(/\bI\b/);
    expect(summary).toMatch(/\blove\b/i);
    const title = titleFromSummary(summary);
    expect(title.length).toBeGreaterThan(5);
    expect(summary.startsWith(title)).toBe(true);

    const scores = await model.score(transcript);
    expect(Object.keys(scores).sort()).toEqual([...SCORE_DIMENSIONS].sort());
    for (const value of Object.values(scores)) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(1);
      expect(value).toBeLessThanOrEqual(10);
    }

    const tags = await model.tags(transcript, now);
    expect(validateGeneratedTags(tags)).toEqual(tags);
  });

  it("names what the memory is about in the title and tags", async () => {
    const [first] = TRANSCRIPTS;
    const summary = await model.summarize(first ?? "");
    expect(titleFromSummary(summary)).toBe(
      "My dear, I want to tell you about the beach and your grandpa.",
    );
    expect(await model.tags(first ?? "", now)).toEqual(["beach", "grandpa", "sandcastle"]);
  });

  it("fills short transcripts' tags from the current time", async () => {
    expect(await model.tags("hello", now)).toEqual(["november", "2026", "family"]);
  });

  it("gives scores that follow the content", async () => {
    const big = await model.score(TRANSCRIPTS[1] ?? "");
    const tiny = await model.score("hello");
    expect(big.meaningfulness).toBeGreaterThan(tiny.meaningfulness);
    expect(big.overall).toBeGreaterThan(tiny.overall);
  });

  it("refuses an empty transcript with the spec's message", async () => {
    await expect(model.summarize("  ")).rejects.toThrow(
      `${MESSAGES.summarizeFailedPrefix}${MESSAGES.noSummaryGenerated}`,
    );
  });
});

function hasPocketsphinx(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v pocketsphinx_continuous"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("PocketsphinxTranscriber", () => {
  let dir: string;
  let mp3: Buffer;

  beforeAll(async () => {
    dir = await makeTempDir("vmj-sphinx-");
    const wav = path.join(dir, "speech.wav");
    await run("espeak-ng", [
      "-w",
      wav,
      "Today we went to the beach with grandpa and built a sandcastle",
    ]);
    await run("ffmpeg", [
      "-loglevel",
      "error",
      "-i",
      wav,
      "-ac",
      "1",
      path.join(dir, "speech.mp3"),
    ]);
    mp3 = await readFile(path.join(dir, "speech.mp3"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // CI (.ci/run) installs pocketsphinx; a developer machine without it still runs the test below.
  it.runIf(hasPocketsphinx())(
    "transcribes espeak-ng speech from an MP3",
    async () => {
      const result = await new PocketsphinxTranscriber().transcribe({
        bytes: mp3,
        filename: "speech.mp3",
        contentType: "audio/mpeg",
      });
      expect(result.text).toMatch(/beach/);
      expect(result.duration).toBe(mp3.length / 16000);
    },
    60_000,
  );

  it("says how to enable offline transcription when the engine is missing", async () => {
    const error = await new PocketsphinxTranscriber("/nonexistent/pocketsphinx_continuous")
      .transcribe({ bytes: mp3, filename: "speech.mp3", contentType: "audio/mpeg" })
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^Transcription failed: /);
    expect((error as Error).message).toContain("apt-get install pocketsphinx pocketsphinx-en-us");
    expect((error as Error).message).toContain("OPENAI_API_KEY");
  });

  it("kills the engine when its signal is aborted, rejecting with the signal's reason", async () => {
    // An engine that hangs, and says its process id so the test can look for it afterwards.
    const pidFile = path.join(dir, "engine.pid");
    const engine = path.join(dir, "hanging-engine");
    await writeFile(engine, `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 30\n`);
    await chmod(engine, 0o755);
    const controller = new AbortController();
    const reason = new Error("lease lost");
    const pending = new PocketsphinxTranscriber(engine)
      .transcribe(
        { bytes: mp3, filename: "speech.mp3", contentType: "audio/mpeg" },
        { signal: controller.signal },
      )
      .catch((e: unknown) => e);
    let pid = 0;
    const deadline = Date.now() + 10_000;
    while (!pid && Date.now() < deadline) {
      pid = Number((await readFile(pidFile, "utf8").catch(() => "")).trim());
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(pid).toBeGreaterThan(0);
    controller.abort(reason);
    expect(await pending).toBe(reason);
    await new Promise((r) => setTimeout(r, 50));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });
});
