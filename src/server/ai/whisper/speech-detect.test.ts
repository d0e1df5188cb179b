import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/harness";
import { run } from "../audio-split";
import { estimateSpeech, hasSpeech } from "./speech-detect";
import { WHISPER_SAMPLE_RATE, wavSamples } from "./wav";

// Real audio made by espeak-ng and ffmpeg, converted as the engine receives it (16 kHz mono WAV).
describe("speech detection", () => {
  let dir: string;
  const samplesOf = async (name: string, ...ffmpegArgs: string[]) => {
    const file = path.join(dir, `${name}.wav`);
    await run("ffmpeg", [
      "-loglevel",
      "error",
      "-y",
      ...ffmpegArgs,
      "-ar",
      "16000",
      "-ac",
      "1",
      "-c:a",
      "pcm_s16le",
      file,
    ]);
    return wavSamples(await readFile(file));
  };

  beforeAll(async () => {
    dir = await makeTempDir("vmj-vad-");
    await run("espeak-ng", [
      "-w",
      path.join(dir, "speech-raw.wav"),
      "You said your very first word today. It was doggy.",
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("hears speech, alone and over steady room noise", async () => {
    const speech = await samplesOf("speech", "-i", path.join(dir, "speech-raw.wav"));
    expect(hasSpeech(speech, WHISPER_SAMPLE_RATE)).toBe(true);
    // Pink noise about 10 dB under the voice, through the whole recording.
    const noisy = await samplesOf(
      "noisy",
      "-i",
      path.join(dir, "speech-raw.wav"),
      "-f",
      "lavfi",
      "-i",
      "anoisesrc=r=22050:a=0.03:c=pink",
      "-filter_complex",
      "[0:a][1:a]amix=inputs=2:duration=first:normalize=0",
    );
    expect(hasSpeech(noisy, WHISPER_SAMPLE_RATE)).toBe(true);
  });

  it.each([
    ["digital silence", ["-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "3"]],
    ["a quiet room", ["-f", "lavfi", "-i", "anoisesrc=r=16000:a=0.002:c=pink", "-t", "3"]],
    ["a loud steady fan", ["-f", "lavfi", "-i", "anoisesrc=r=16000:a=0.3:c=brown", "-t", "3"]],
    ["a mains hum", ["-f", "lavfi", "-i", "sine=f=50:r=16000", "-t", "3"]],
    [
      "a single click",
      ["-f", "lavfi", "-i", "aevalsrc=if(lt(t\\,0.02)\\,0.9\\,0):s=16000", "-t", "3"],
    ],
  ])("hears no speech in %s", async (name, args) => {
    const samples = await samplesOf(name.replace(/\s/g, "-"), ...args);
    const estimate = estimateSpeech(samples, WHISPER_SAMPLE_RATE);
    expect(estimate.voicedSeconds).toBeLessThan(0.3);
    expect(hasSpeech(samples, WHISPER_SAMPLE_RATE)).toBe(false);
  });
});
