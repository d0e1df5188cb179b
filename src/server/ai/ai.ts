import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import type { Scores } from "../../shared/schemas";
import type { TranscriptSegment } from "../../shared/transcript";

/** Audio handed to a transcriber: the bytes (or a stream of them), a file name and its MIME type. */
export interface AudioInput {
  bytes: Buffer | Readable;
  filename: string;
  contentType: string;
}

/** What a transcriber returns (spec: text and estimated duration in seconds). */
export interface TranscriptionResult {
  text: string;
  duration: number;
  /** The spoken language (ISO 639-1, "en"), when the engine detects it. */
  language?: string;
  /** Which engine and model made it ("whisper.cpp ggml-base.bin", "pocketsphinx"). */
  engine?: string;
  /** The text with the times it was spoken, when the engine gives them. */
  segments?: TranscriptSegment[];
}

/**
 * Per-call options. Aborting `signal` stops the call (the HTTP request, the child process) and
 * rejects with `signal.reason` as it is, never as a stage failure: the caller gave up, not the
 * provider (a job worker that lost its lease, for one).
 */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Speech to text. Errors carry the spec's user-facing message ('Transcription failed: ...'). */
export interface Transcriber {
  transcribe(audio: AudioInput, options?: CallOptions): Promise<TranscriptionResult>;
}

/**
 * Options of a text-model call. `language` is the transcript's ISO 639-1 code when the speech
 * engine reported it ("es"); without it a provider works it out from the transcript. Summary,
 * title and tags are written in that language.
 */
export interface TextOptions extends CallOptions {
  language?: string;
  /** The question the recording answers (shown while it was recorded): context for the summary. */
  question?: string;
  /** The memory has a photo (it was told about one): a note for the summary; no image is sent. */
  aboutPhoto?: boolean;
}

/** Summary, scores and tags from a transcript. Errors carry the spec's user-facing messages. */
export interface TextModel {
  /** A warm summary addressed to a child, in the recorder's voice; its first sentence is the title. */
  summarize(transcript: string, options?: TextOptions): Promise<string>;
  /** Six integer scores 1 to 10 (5 where missing or invalid). */
  score(transcript: string, options?: TextOptions): Promise<Scores>;
  /** Exactly 3 tags of 1 to 3 lowercase words; `now` is the current time. */
  tags(transcript: string, now: Date, options?: TextOptions): Promise<string[]>;
}

/** The providers the pipeline uses, chosen from configuration by `createAi`. */
export interface AiProviders {
  name: "openai" | "local";
  transcriber: Transcriber;
  textModel: TextModel;
}

/**
 * A provider failure: its message starts with the stage's prefix, but the rest may be the
 * provider's raw text (paths, hosts, set-up hints), so it goes to the log; users see a code.
 */
export class AiError extends Error {
  override name = "AiError";
}

/**
 * Runs `work`, turning any failure into an AiError whose message starts with the spec's prefix
 * (the original failure is its `cause`); once `signal` is aborted, the failure is the abort and `signal.reason` is thrown instead.
 */
export async function withErrorPrefix<T>(
  prefix: string,
  work: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    signal?.throwIfAborted();
    return await work();
  } catch (error) {
    signal?.throwIfAborted();
    const reason = error instanceof Error ? error.message : String(error);
    throw new AiError(reason.startsWith(prefix) ? reason : `${prefix}${reason}`, { cause: error });
  }
}

/** Reads a stream (or returns the buffer) so providers can measure and split the audio. */
export async function audioBytes(bytes: Buffer | Readable): Promise<Buffer> {
  return Buffer.isBuffer(bytes) ? bytes : buffer(bytes);
}
