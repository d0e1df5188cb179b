import type { Config } from "../config";
import type { AiProviders } from "./ai";
import { PocketsphinxTranscriber } from "./providers/local";
import { LocalTextModel } from "./providers/local-text-model";
import { type OpenAiOptions, OpenAiTextModel, OpenAiTranscriber } from "./providers/openai";

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
    transcriber: new PocketsphinxTranscriber(config.POCKETSPHINX_BIN),
    textModel: new LocalTextModel(),
  };
}
