import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Runs a command, resolving with its stdout; rejects with its stderr when it fails. Aborting
 * `signal` kills the command (SIGTERM) and rejects with the abort.
 */
export function run(
  command: string,
  args: string[],
  options: { notFound?: string; signal?: AbortSignal } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      signal: options.signal,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "ENOENT" && options.notFound ? new Error(options.notFound) : error);
    });
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else {
        const detail = Buffer.concat(err).toString("utf8").trim().split("\n").slice(-3).join(" ");
        reject(new Error(`${command} exited with code ${code}${detail ? `: ${detail}` : ""}`));
      }
    });
  });
}

export const FFMPEG_MISSING =
  "ffmpeg is needed to convert audio on the server (apt-get install ffmpeg)";

/** A temporary folder for one conversion, removed afterwards whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "vmj-audio-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Splits audio into MP3 parts of at most `maxPartBytes` each (mono 64 kbit/s, cut on time so
 * every part is a valid file), for transcription services with an upload limit.
 */
export async function splitAudio(
  bytes: Buffer,
  filename: string,
  maxPartBytes: number,
  signal?: AbortSignal,
): Promise<Buffer[]> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, `input${path.extname(filename) || ".bin"}`);
    await writeFile(input, bytes);
    const bitrate = 64_000;
    // Leave 10% headroom for frame and header overhead.
    const seconds = Math.max(1, Math.floor(((maxPartBytes * 8) / bitrate) * 0.9));
    await run(
      "ffmpeg",
      [
        "-nostdin",
        "-loglevel",
        "error",
        "-i",
        input,
        "-vn",
        "-ac",
        "1",
        "-b:a",
        "64k",
        "-f",
        "segment",
        "-segment_time",
        String(seconds),
        "-reset_timestamps",
        "1",
        path.join(dir, "part-%05d.mp3"),
      ],
      { notFound: FFMPEG_MISSING, signal },
    );
    const parts = (await readdir(dir)).filter((name) => name.startsWith("part-")).sort();
    return Promise.all(parts.map((name) => readFile(path.join(dir, name))));
  });
}

/** Converts audio to 16 kHz mono 16-bit WAV (what offline speech engines expect). */
export async function toWav16kMono(
  input: string,
  output: string,
  signal?: AbortSignal,
): Promise<void> {
  await run(
    "ffmpeg",
    [
      "-nostdin",
      "-loglevel",
      "error",
      "-y",
      "-i",
      input,
      "-vn",
      "-ar",
      "16000",
      "-ac",
      "1",
      "-c:a",
      "pcm_s16le",
      output,
    ],
    { notFound: FFMPEG_MISSING, signal },
  );
}

/**
 * Writes a recording to a temporary folder, converts it to 16 kHz mono WAV and hands the WAV's
 * path to `work`; the folder is removed afterwards whatever happens. Both offline speech engines
 * start this way.
 */
export function withSpeechWav<T>(
  bytes: Buffer,
  filename: string,
  signal: AbortSignal | undefined,
  work: (wav: string) => Promise<T>,
): Promise<T> {
  return withTempDir(async (dir) => {
    const input = path.join(dir, `input${path.extname(filename) || ".bin"}`);
    const wav = path.join(dir, "speech.wav");
    await writeFile(input, bytes);
    await toWav16kMono(input, wav, signal);
    return work(wav);
  });
}
