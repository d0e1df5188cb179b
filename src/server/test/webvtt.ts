import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { run } from "../ai/audio-split";
import { speechMp3 } from "./audio-fixtures";
import { makeTempDir } from "./harness";
import { defaultStubHandler, type OpenAiStub, startOpenAiStub } from "./openai-stub";

/** The cues of a WebVTT file; fails the test when it is not one (header, blank line, timed cues). */
export function parseVtt(vtt: string): { start: number; end: number; text: string }[] {
  const [header, ...blocks] = vtt.split(/\n\n+/);
  expect(header).toBe("WEBVTT");
  const seconds = (time: string) => {
    const [h, m, s] = time.split(":").map(Number);
    return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
  };
  return blocks
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n");
      const timing = lines.find((line) => line.includes("-->")) ?? "";
      const match = /^(\d{2}:\d{2}:\d{2}\.\d{3}) --> (\d{2}:\d{2}:\d{2}\.\d{3})$/.exec(timing);
      expect(match, `cue timing "${timing}"`).not.toBeNull();
      return {
        start: seconds(match?.[1] ?? ""),
        end: seconds(match?.[2] ?? ""),
        text: lines.slice(lines.indexOf(timing) + 1).join("\n"),
      };
    });
}

/** Checks that cues follow each other, each with a length, all inside `duration` seconds. */
export function expectCuesInOrder(cues: { start: number; end: number }[], duration: number) {
  let previous = 0;
  for (const cue of cues) {
    expect(cue.start).toBeGreaterThanOrEqual(previous);
    expect(cue.end).toBeGreaterThan(cue.start);
    expect(cue.end).toBeLessThanOrEqual(duration);
    previous = cue.end;
  }
}

/** A recording's length in seconds, as ffprobe reads it. */
export async function audioSeconds(bytes: Buffer, name = "a.mp3"): Promise<number> {
  const dir = await makeTempDir("vmj-vtt-");
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  try {
    const probed = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "csv=p=0",
      file,
    ]);
    return Number(probed.trim());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A spoken recording, its length, and an OpenAI stub that transcribes it into timed segments:
 * made before the calling file's tests, the stub closed after them.
 */
export function spokenRecordingFixture(): { stub: OpenAiStub; mp3: Buffer; mp3Seconds: number } {
  const spoken = {} as { stub: OpenAiStub; mp3: Buffer; mp3Seconds: number };
  beforeAll(async () => {
    spoken.stub = await startOpenAiStub();
    spoken.stub.handle(defaultStubHandler);
    spoken.mp3 = await speechMp3(
      "Today we went to the beach with Grandpa and you built a sandcastle.",
    );
    spoken.mp3Seconds = await audioSeconds(spoken.mp3);
  });
  afterAll(async () => {
    await spoken.stub?.close();
  });
  return spoken;
}
