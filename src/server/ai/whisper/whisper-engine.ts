/**
 * The Whisper engine's own process (started by WhisperTranscriber through `fork`): whisper.cpp
 * runs here, never in the web server, because a malformed model or a native fault aborts the
 * whole process it runs in. It takes one request over IPC, answers once, and exits.
 */
import { readFile } from "node:fs/promises";
import { hasSpeech } from "./speech-detect";
import { WHISPER_SAMPLE_RATE, wavSamples } from "./wav";

/** What the server asks: a model file, a 16 kHz mono WAV, a thread count. */
export interface EngineRequest {
  model: string;
  wav: string;
  threads: number;
}

/** The engine's one answer. */
export type EngineReply =
  | {
      ok: true;
      text: string;
      /** whisper.cpp's segments, in seconds. */
      segments: { start: number; end: number; text: string }[];
      language: string | null;
      loadMs: number;
      runMs: number;
      /** This process's peak resident memory: what a transcription costs in RAM. */
      peakRssMb: number;
      /** False when the recording held no speech: the model was not even loaded. */
      speech: boolean;
      seconds: number;
    }
  | { ok: false; error: string };

async function transcribe(request: EngineRequest): Promise<EngineReply> {
  // Loaded here only: the server process never loads the native library.
  const { Whisper, WhisperFullParams, WhisperSamplingStrategy } = await import("@napi-rs/whisper");
  // The audio is read here, not in the web server: an hour-long recording is 230 MB of samples.
  const samples = wavSamples(await readFile(request.wav));
  const seconds = samples.length / WHISPER_SAMPLE_RATE;
  const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
  // Whisper invents text for silence and steady noise: such recordings are not given to it.
  if (!hasSpeech(samples, WHISPER_SAMPLE_RATE)) {
    return {
      ok: true,
      text: "",
      segments: [],
      language: null,
      loadMs: 0,
      runMs: 0,
      peakRssMb: peakRssMb(),
      speech: false,
      seconds,
    };
  }
  const loadStart = performance.now();
  const whisper = new Whisper(request.model);
  const runStart = performance.now();
  const params = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
  params.nThreads = request.threads;
  // Whisper's own language detection; the language found is kept on the memory.
  params.language = "auto";
  params.translate = false;
  params.printProgress = false;
  params.printRealtime = false;
  params.printTimestamps = false;
  params.printSpecial = false;
  // `full` blocks this thread: the binding queues each new segment for JS (without waiting for
  // it), and the queue is drained once `full` returns, below.
  const segments: { start: number; end: number; text: string }[] = [];
  params.onNewSegment = (segment) => {
    // whisper.cpp times segments in hundredths of a second.
    segments.push({ start: segment.start / 100, end: segment.end / 100, text: segment.text });
  };
  const text = whisper.full(params, samples);
  const squash = (value: string) => value.replace(/\s+/g, "");
  for (let turn = 0; turn < 100; turn++) {
    if (squash(segments.map((segment) => segment.text).join("")) === squash(text)) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const language = Whisper.lang(whisper.fullLangId);
  return {
    ok: true,
    text,
    segments,
    language,
    loadMs: Math.round(runStart - loadStart),
    runMs: Math.round(performance.now() - runStart),
    peakRssMb: peakRssMb(),
    speech: true,
    seconds,
  };
}

process.once("message", (request: EngineRequest) => {
  transcribe(request)
    .catch((error: unknown): EngineReply => ({ ok: false, error: String(error) }))
    .then((reply) => process.send?.(reply, () => process.exit(0)));
});
