import { spawn } from "node:child_process";
import path from "node:path";
import type { Config } from "../config";
import { whisperModelFile, whisperThreads } from "./ai-factory";
import { FFMPEG_MISSING } from "./audio-split";
import { POCKETSPHINX_MISSING } from "./providers/local";
import {
  DEFAULT_WHISPER_MODEL,
  downloadCommand,
  inspectModel,
  isModelName,
  modelPath,
} from "./whisper/whisper-models";

/** What start-up logs about AI: the provider, its speech engine and text model, what cannot work. */
export interface AiStatus {
  provider: "openai" | "local";
  speechEngine: string;
  textModel: string;
  /** One sentence each, for the log: what will fail and how to fix it. */
  warnings: string[];
}

export type AiStatusConfig = Pick<
  Config,
  | "aiProvider"
  | "OPENAI_API_KEY"
  | "OPENAI_BASE_URL"
  | "OPENAI_TRANSCRIPTION_BASE_URL"
  | "OPENAI_TRANSCRIPTION_MODEL"
  | "OPENAI_TEXT_MODEL"
  | "POCKETSPHINX_BIN"
  | "WHISPER_MODEL"
  | "WHISPER_THREADS"
  | "WHISPER_AUTO_DOWNLOAD"
  | "WHISPER_MODEL_HOST"
  | "dataDir"
>;

/** Whether a command can be started (found, executable, its libraries load). */
export type CommandProbe = (command: string, args: string[]) => Promise<boolean>;

/**
 * Starts `command` and waits for it to exit. Its exit code does not matter (pocketsphinx prints
 * its usage and exits 1), except 126 and 127: the system could not run it (a missing library).
 */
export const canRun: CommandProbe = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", timeout: 5_000 });
    child.once("error", () => resolve(false));
    child.once("close", (code) => resolve(code !== 126 && code !== 127));
  });

/** Where requests go, without any credentials a URL might carry. */
function endpoint(baseURL: string | undefined): string {
  const url = new URL(baseURL ?? "https://api.openai.com/v1");
  return `${url.origin}${url.pathname.replace(/\/$/, "")}`;
}

/**
 * Says which AI provider and speech engine are active and warns about what cannot work, so the
 * operator finds out at start-up rather than the first family member. Makes no network calls:
 * a remote server is only checked for being configured; local programs are started once.
 */
export async function describeAi(
  config: AiStatusConfig,
  probe: CommandProbe = canRun,
): Promise<AiStatus> {
  const warnings: string[] = [];
  const ffmpeg = probe("ffmpeg", ["-version"]);
  if (config.aiProvider === "openai") {
    if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
      warnings.push(
        "AI processing will fail: set OPENAI_API_KEY, or OPENAI_BASE_URL for a self-hosted server",
      );
    }
    if (!(await ffmpeg)) {
      warnings.push(
        `Recordings over 25 MB cannot be transcribed (they are split): ${FFMPEG_MISSING}`,
      );
    }
    return {
      provider: "openai",
      speechEngine: `${config.OPENAI_TRANSCRIPTION_MODEL} at ${endpoint(
        config.OPENAI_TRANSCRIPTION_BASE_URL ?? config.OPENAI_BASE_URL,
      )}`,
      textModel: `${config.OPENAI_TEXT_MODEL} at ${endpoint(config.OPENAI_BASE_URL)}`,
      warnings,
    };
  }
  const model = whisperModelFile(config);
  if (model) {
    const damaged = await inspectModel(model).then(
      () => null,
      (error: Error) => error.message,
    );
    if (damaged) {
      const name = isModelName(config.WHISPER_MODEL) ? config.WHISPER_MODEL : DEFAULT_WHISPER_MODEL;
      warnings.push(
        `Recordings cannot be transcribed: ${damaged}. Fetch it again with \`${downloadCommand(name)}\``,
      );
    }
    if (!(await ffmpeg)) warnings.push(`Recordings cannot be transcribed: ${FFMPEG_MISSING}`);
    return {
      provider: "local",
      speechEngine: `whisper.cpp (${path.basename(model)}, ${whisperThreads(config)} threads)`,
      textModel: "wink-nlp (offline)",
      warnings,
    };
  }
  // No Whisper model: it is being fetched (model-fetcher.ts, which logs its progress), or say how
  // to get one; then check the fallback engine.
  const fetching = config.WHISPER_AUTO_DOWNLOAD && isModelName(config.WHISPER_MODEL);
  if (!fetching) {
    warnings.push(
      `No Whisper model at ${modelPath(config.WHISPER_MODEL, config.dataDir)} (WHISPER_MODEL=${config.WHISPER_MODEL}): speech recognition falls back to pocketsphinx, which gets about a third of the words wrong. Run \`${downloadCommand()}\` (or \`${downloadCommand("tiny")}\` on a small machine); it is used from the next recording`,
    );
  }
  const [engine, converter] = await Promise.all([probe(config.POCKETSPHINX_BIN, []), ffmpeg]);
  if (!engine) {
    warnings.push(
      `Recordings cannot be transcribed: ${config.POCKETSPHINX_BIN} cannot be run, ${POCKETSPHINX_MISSING}`,
    );
  }
  if (!converter) warnings.push(`Recordings cannot be transcribed: ${FFMPEG_MISSING}`);
  return {
    provider: "local",
    speechEngine: `pocketsphinx (${config.POCKETSPHINX_BIN})${fetching ? ", until the Whisper model is downloaded" : ""}`,
    textModel: "wink-nlp (offline)",
    warnings,
  };
}
