import { existsSync } from "node:fs";
import os from "node:os";
import type { Config } from "../config";
import type { AiProviders, AudioInput, CallOptions, Transcriber, TranscriptionResult } from "./ai";
import { PocketsphinxTranscriber } from "./providers/local";
import { LocalTextModel } from "./providers/local-text-model";
import { type OpenAiOptions, OpenAiTextModel, OpenAiTranscriber } from "./providers/openai";
import { modelPath } from "./whisper/whisper-models";
import { WhisperTranscriber } from "./whisper/whisper-transcriber";

/** The providers of any OpenAI-compatible server. */
export function openAiProviders(options: OpenAiOptions): AiProviders {
  return {
    name: "openai",
    transcriber: new OpenAiTranscriber(options),
    textModel: new OpenAiTextModel(options),
  };
}

/** Chooses the providers from configuration: `openai` (any compatible server) or `local`. */
export function createAi(
  config: LocalSpeechConfig &
    Pick<
      Config,
      | "aiProvider"
      | "OPENAI_API_KEY"
      | "OPENAI_BASE_URL"
      | "OPENAI_TRANSCRIPTION_BASE_URL"
      | "OPENAI_TRANSCRIPTION_MODEL"
      | "OPENAI_TEXT_MODEL"
      | "OPENAI_TIMEOUT_MS"
      | "OPENAI_MAX_RETRIES"
    >,
): AiProviders {
  if (config.aiProvider === "openai") {
    return openAiProviders({
      apiKey: config.OPENAI_API_KEY,
      baseURL: config.OPENAI_BASE_URL,
      transcriptionBaseURL: config.OPENAI_TRANSCRIPTION_BASE_URL,
      transcriptionModel: config.OPENAI_TRANSCRIPTION_MODEL,
      textModel: config.OPENAI_TEXT_MODEL,
      timeoutMs: config.OPENAI_TIMEOUT_MS,
      maxRetries: config.OPENAI_MAX_RETRIES,
    });
  }
  return {
    name: "local",
    transcriber: new LocalTranscriber(config),
    textModel: new LocalTextModel(),
  };
}

export type LocalSpeechConfig = Pick<
  Config,
  "POCKETSPHINX_BIN" | "WHISPER_MODEL" | "WHISPER_THREADS" | "WHISPER_TIMEOUT_MS" | "dataDir"
>;

/** The Whisper model file WHISPER_MODEL names, when it is there (else pocketsphinx is used). */
export function whisperModelFile(config: Pick<Config, "WHISPER_MODEL" | "dataDir">): string | null {
  const file = modelPath(config.WHISPER_MODEL, config.dataDir);
  return existsSync(file) ? file : null;
}

/** whisper.cpp's thread count: WHISPER_THREADS, else the machine's cores (at most 8). */
export function whisperThreads(config: Pick<Config, "WHISPER_THREADS">): number {
  return config.WHISPER_THREADS ?? Math.min(8, os.availableParallelism());
}

/**
 * The local provider's speech engine, chosen for each recording: Whisper once its model file is
 * there (downloaded in the background by ModelFetcher, or placed by hand; a download appears only
 * once complete and checked), else pocketsphinx. Start-up says which (ai-status.ts).
 */
export class LocalTranscriber implements Transcriber {
  private readonly fallback: PocketsphinxTranscriber;

  constructor(private readonly config: LocalSpeechConfig) {
    this.fallback = new PocketsphinxTranscriber(config.POCKETSPHINX_BIN);
  }

  /** Whether recordings are now transcribed with Whisper. */
  hasWhisper(): boolean {
    return whisperModelFile(this.config) !== null;
  }

  transcribe(audio: AudioInput, options?: CallOptions): Promise<TranscriptionResult> {
    const model = whisperModelFile(this.config);
    if (!model) return this.fallback.transcribe(audio, options);
    return new WhisperTranscriber({
      model,
      threads: whisperThreads(this.config),
      timeoutMs: this.config.WHISPER_TIMEOUT_MS,
    }).transcribe(audio, options);
  }
}

/** The speech engine better than the pocketsphinx fallback that is there now, if any. */
export type BetterSpeech = "server" | "whisper" | null;

/**
 * Whether transcripts made by the pocketsphinx fallback can now be made better: a server is used,
 * or the local provider's Whisper model is there.
 */
export function betterSpeechAvailable(ai: AiProviders): BetterSpeech {
  if (ai.name === "openai") return "server";
  return ai.transcriber instanceof LocalTranscriber && ai.transcriber.hasWhisper()
    ? "whisper"
    : null;
}
