import { execFileSync } from "node:child_process";
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../../test/harness";
import { run } from "../audio-split";
import { PocketsphinxTranscriber, parsePocketsphinx } from "./local";

function hasPocketsphinx(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v pocketsphinx_continuous"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("pocketsphinx's timed output", () => {
  it("keeps the text and groups the words into segments at pauses, without markers", () => {
    const output = [
      "while the ah and",
      "<s> 0.000 0.060 0.999100",
      "while(2) 0.070 0.300 0.075941",
      "<sil> 0.310 0.640 0.999400",
      "the 0.650 0.830 0.252976",
      "ah 0.840 1.180 0.291026",
      "<sil> 1.190 1.300 0.999800",
      "and 1.310 1.750 0.014668",
      "</s> 1.760 1.880 1.000000",
      "we watch",
      "we 3.000 3.200 0.1",
      "[NOISE] 3.200 3.300 0.1",
      "watch 3.300 3.600 0.1",
    ].join("\n");
    expect(parsePocketsphinx(output)).toEqual({
      text: "while the ah and we watch",
      segments: [
        { start: 0.07, end: 0.3, text: "while" },
        { start: 0.65, end: 1.75, text: "the ah and" },
        { start: 3, end: 3.6, text: "we watch" },
      ],
    });
  });
});

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
      expect(result.engine).toBe("pocketsphinx");
      // Word times, grouped at pauses: the same words as the text, in order, inside the audio.
      const segments = result.segments ?? [];
      expect(segments.length).toBeGreaterThan(0);
      expect(segments.map((s) => s.text).join(" ")).toBe(result.text);
      for (const [i, s] of segments.entries()) {
        expect(s.end).toBeGreaterThanOrEqual(s.start);
        if (i > 0) expect(s.start).toBeGreaterThanOrEqual(segments[i - 1]?.end ?? 0);
      }
      expect(segments.at(-1)?.end).toBeLessThan(6);
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
    await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(/ESRCH/));
  });
});
