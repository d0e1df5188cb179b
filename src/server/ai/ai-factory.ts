import { existsSync } from "node:fs";
import os from "node:os";
import type { Config } from "../config";
import type { AiProviders, Transcriber } from "./ai";
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
  config: Pick<
    Config,
    | "aiProvider"
    | "OPENAI_API_KEY"
    | "OPENAI_BASE_URL"
    | "OPENAI_TRANSCRIPTION_BASE_URL"
    | "OPENAI_TRANSCRIPTION_MODEL"
    | "OPENAI_TEXT_MODEL"
    | "OPENAI_TIMEOUT_MS"
    | "OPENAI_MAX_RETRIES"
    | "POCKETSPHINX_BIN"
    | "WHISPER_MODEL"
    | "WHISPER_THREADS"
    | "WHISPER_TIMEOUT_MS"
    | "dataDir"
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
    transcriber: localTranscriber(config),
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
 * The local provider's speech engine: Whisper once its model has been downloaded (nothing is
 * fetched at run time), else pocketsphinx; start-up says which (ai-status.ts).
 */
function localTranscriber(config: LocalSpeechConfig): Transcriber {
  const model = whisperModelFile(config);
  if (!model) return new PocketsphinxTranscriber(config.POCKETSPHINX_BIN);
  return new WhisperTranscriber({
    model,
    threads: whisperThreads(config),
    timeoutMs: config.WHISPER_TIMEOUT_MS,
  });
}
