// Offline speech recognition speed: the real-time factor (processing time / audio duration, lower
// is faster) of the Whisper engine (whisper.cpp through @napi-rs/whisper, in its own process,
// ffmpeg conversion and speech detection included) beside pocketsphinx's on the same audio, in
// the same run.
//
// The published weights cannot be downloaded on the benchmark machine, so Whisper runs on
// generated models with the exact shapes of ggml-tiny.bin and ggml-base.bin whose decoder ends
// each window at once: the figure is the engine's fixed cost (model load, mel spectrogram, the
// full encoder per 30 s window, language detection). Real speech adds decoding, about 3 tokens
// per second of speech at 11 ms (tiny) or 18 ms (base) per token on 2 threads (TOOLING.md):
// +0.03 and +0.05 to the real-time factor.
import { readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { run } from "../src/server/ai/audio-split";
import { PocketsphinxTranscriber } from "../src/server/ai/providers/local";
import { WhisperTranscriber } from "../src/server/ai/whisper/whisper-transcriber";
import { makeTempDir } from "../src/server/test/harness";
import { BASE_SHAPE, TINY_SHAPE, testModelBytes } from "../src/server/test/whisper-model";

const print = (line: string) => process.stdout.write(`${line}\n`);
const THREADS = Math.min(8, os.availableParallelism());
const SENTENCES = [
  "Today you said your very first word, and it was doggy.",
  "We went to the beach with grandpa and you built a sandcastle taller than your knees.",
  "Your grandmother baked an apple pie and you ate three slices before lunch.",
  "You laughed so hard at the ducks that you fell over in the grass.",
];

const dir = await makeTempDir("vmj-bench-speech-");
try {
  const wav = path.join(dir, "speech.wav");
  await run("espeak-ng", ["-s", "150", "-w", wav, SENTENCES.join(" ")]);
  const mp3 = path.join(dir, "speech.mp3");
  await run("ffmpeg", ["-loglevel", "error", "-i", wav, "-ac", "1", "-b:a", "64k", mp3]);
  const bytes = await readFile(mp3);
  const seconds = Number(
    (
      await run("ffprobe", [
        "-v",
        "error",
        "-show_entries",
        "format=duration",
        "-of",
        "csv=p=0",
        mp3,
      ])
    ).trim(),
  );
  const audio = { bytes, filename: "speech.mp3", contentType: "audio/mpeg" };
  const time = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    return (performance.now() - start) / 1000;
  };

  const rows: [string, number, string][] = [];
  rows.push([
    "pocketsphinx (floor)",
    await time(() => new PocketsphinxTranscriber().transcribe(audio)),
    "",
  ]);
  for (const [name, shape] of [
    ["tiny", TINY_SHAPE],
    ["base", BASE_SHAPE],
  ] as const) {
    const model = path.join(dir, `ggml-${name}-shaped.bin`);
    await writeFile(model, testModelBytes(shape, 42, { endAtOnce: true }));
    let stats = { loadMs: 0, runMs: 0, peakRssMb: 0 };
    const whisper = new WhisperTranscriber({
      model,
      threads: THREADS,
      timeoutMs: 3_600_000,
      onEngineDone: (engineStats) => {
        stats = engineStats;
      },
    });
    const took = await time(() => whisper.transcribe(audio));
    rows.push([
      `whisper.cpp ${name} shape, fixed cost`,
      took,
      `${stats.loadMs} ms load, ${stats.peakRssMb} MB peak`,
    ]);
    await rm(model);
  }

  print(
    `speech-rtf: ${seconds.toFixed(1)} s of espeak-ng speech (MP3), ${THREADS} threads, load average ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores`,
  );
  print("");
  print("| engine | seconds | real-time factor | engine process |");
  print("| --- | --- | --- | --- |");
  for (const [name, took, engine] of rows) {
    print(`| ${name} | ${took.toFixed(2)} | ${(took / seconds).toFixed(2)} | ${engine} |`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
