import { type ChildProcess, fork } from "node:child_process";
import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LANGUAGE_CODE_PATTERN } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { estimateDuration } from "../../../shared/rules";
import { cleanSegments } from "../../../shared/transcript";
import {
  type AudioInput,
  audioBytes,
  type CallOptions,
  type Transcriber,
  type TranscriptionResult,
  withErrorPrefix,
} from "../ai";
import { withSpeechWav } from "../audio-split";
import { WHISPER_SAMPLE_RATE } from "./wav";
import type { EngineReply, EngineRequest } from "./whisper-engine";
import { inspectModel } from "./whisper-models";

export interface WhisperOptions {
  /** The ggml model file (ggml-base.bin, ggml-tiny.bin or any whisper.cpp model). */
  model: string;
  /** whisper.cpp's thread count, set explicitly (its default would take every core). */
  threads: number;
  /** Time allowed for a recording of up to 10 minutes; longer ones get proportionally more. */
  timeoutMs: number;
  /** Called with the engine's process id once it runs (tests use it to kill the engine). */
  onEngineStart?: (pid: number) => void;
  /** Called with the engine's report after each run (tests and the benchmark read it). */
  onEngineDone?: (stats: {
    loadMs: number;
    runMs: number;
    peakRssMb: number;
    speech: boolean;
  }) => void;
}

/** Where the engine's entry is: beside the bundle in dist/, or the TypeScript source under tsx. */
function engineEntry(): { script: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const dir = path.dirname(here);
  return here.endsWith(".ts")
    ? { script: path.join(dir, "whisper-engine.ts"), execArgv: ["--import", "tsx"] }
    : { script: path.join(dir, "whisper-engine.js"), execArgv: [] };
}

/** A recording of up to this long gets `timeoutMs`; longer ones get proportionally more. */
const TIMEOUT_BASE_SECONDS = 600;

/** Whisper's notes for what is not speech ("[BLANK_AUDIO]", "[Music]"): never a memory's words. */
const NON_SPEECH_NOTE = /\[[^\]]*\]|\((?:music|applause|silence|inaudible|blank_audio)\)/gi;

/**
 * Offline speech recognition with OpenAI's Whisper models through whisper.cpp
 * (@napi-rs/whisper), run in a child process per recording with a time limit: a crash, an abort
 * or a hang inside native code ends that process and fails that job, never the server. Audio is
 * converted to 16 kHz mono by ffmpeg; the engine process answers recordings without speech with an
 * empty transcript (the pipeline's 'No speech was detected' message) instead of Whisper's inventions.
 */
export class WhisperTranscriber implements Transcriber {
  constructor(private readonly options: WhisperOptions) {}

  transcribe(audio: AudioInput, options: CallOptions = {}): Promise<TranscriptionResult> {
    const { signal } = options;
    const work = async (): Promise<TranscriptionResult> => {
      const bytes = await audioBytes(audio.bytes);
      const duration = estimateDuration(bytes.length);
      return withSpeechWav(bytes, audio.filename, signal, async (wav) => {
        // A damaged model can crash whisper.cpp or run as an empty one: check it first.
        await inspectModel(this.options.model);
        // 16-bit mono samples after a 44-byte header; the engine reads them, this process never.
        const seconds = ((await stat(wav)).size - 44) / 2 / WHISPER_SAMPLE_RATE;
        const timeoutMs =
          this.options.timeoutMs * Math.max(1, Math.ceil(seconds / TIMEOUT_BASE_SECONDS));
        const reply = await this.runEngine(
          { model: this.options.model, wav, threads: this.options.threads },
          timeoutMs,
          signal,
        );
        this.options.onEngineDone?.(reply);
        const words = (value: string) =>
          value.replace(NON_SPEECH_NOTE, " ").replace(/\s+/g, " ").trim();
        const text = words(reply.text);
        // Whisper may place a segment in the padding past the end: clamped to the audio.
        const segments = cleanSegments(
          reply.segments.map((segment) => ({ ...segment, text: words(segment.text) })),
          reply.seconds,
        );
        const language =
          reply.language && LANGUAGE_CODE_PATTERN.test(reply.language) ? reply.language : null;
        const engine = `whisper.cpp ${path.basename(this.options.model)}`;
        return {
          text,
          duration,
          engine,
          ...(text && segments.length > 0 ? { segments } : {}),
          ...(language && text ? { language } : {}),
        };
      });
    };
    return withErrorPrefix(MESSAGES.transcriptionFailedPrefix, work, signal);
  }

  /** Runs the engine once; kills it on timeout or abort. */
  private runEngine(
    request: EngineRequest,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Extract<EngineReply, { ok: true }>> {
    signal?.throwIfAborted();
    const { script, execArgv } = engineEntry();
    return new Promise((resolve, reject) => {
      const child: ChildProcess = fork(script, [], {
        execArgv,
        // The engine needs no secrets (keys, database or SMTP URLs): it gets none.
        env: { PATH: process.env.PATH ?? "" },
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        serialization: "json",
      });
      let stderr = "";
      let reply: EngineReply | null = null;
      let failure: Error | null = null;
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
      });
      const kill = (error: Error | unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
        child.kill("SIGKILL");
      };
      const timer = setTimeout(
        () =>
          kill(new Error(`the Whisper engine took longer than ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      const onAbort = () => kill(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      child.on("message", (message: EngineReply) => {
        reply = message;
      });
      child.once("spawn", () => {
        if (child.pid) this.options.onEngineStart?.(child.pid);
        child.send(request);
      });
      child.once("error", (error) => kill(error));
      child.once("close", (code, exitSignal) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (signal?.aborted) return reject(signal.reason);
        if (failure) return reject(failure);
        const answer = reply as EngineReply | null;
        if (answer?.ok) return resolve(answer);
        const detail = stderr.trim().split("\n").slice(-3).join(" ");
        reject(
          new Error(
            answer
              ? `the Whisper engine failed: ${answer.error}`
              : `the Whisper engine stopped (${exitSignal ?? `exit code ${code}`})${detail ? `: ${detail}` : ""}`,
          ),
        );
      });
    });
  }
}
