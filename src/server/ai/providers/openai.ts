import OpenAI, { toFile } from "openai";
import { z } from "zod";
import { MESSAGES } from "../../../shared/messages";
import { estimateDuration, normalizeScores, validateGeneratedTags } from "../../../shared/rules";
import type { Scores } from "../../../shared/schemas";
import type { TranscriptSegment } from "../../../shared/transcript";
import {
  type AudioInput,
  audioBytes,
  type CallOptions,
  type TextModel,
  type TextOptions,
  type Transcriber,
  type TranscriptionResult,
  withErrorPrefix,
} from "../ai";
import { splitAudio } from "../audio-split";
import { PROMPTS } from "../prompts";
import { cleanProviderText } from "../provider-text";

/** OpenAI's upload limit for transcription. */
export const TRANSCRIPTION_MAX_BYTES = 25 * 1024 * 1024;

export interface OpenAiOptions {
  apiKey?: string;
  baseURL?: string;
  transcriptionBaseURL?: string;
  transcriptionModel: string;
  textModel: string;
  timeoutMs: number;
  maxRetries: number;
  /** Recordings larger than this are split and transcribed in parts. */
  maxUploadBytes?: number;
}

function client(options: OpenAiOptions, baseURL: string | undefined): OpenAI {
  return new OpenAI({
    // Self-hosted OpenAI-compatible servers often need no key; the SDK insists on one.
    apiKey: options.apiKey ?? "not-needed",
    baseURL,
    timeout: options.timeoutMs,
    // The SDK's retries (with backoff, on 408/409/429/5xx and timeouts) are the only retry layer.
    maxRetries: options.maxRetries,
  });
}

/**
 * A transcription: `text`, and with `verbose_json` the audio's `duration` and timed `segments`
 * (servers that ignore the format answer with the text alone).
 */
const transcriptionResponse = z.object({
  text: z.string(),
  duration: z.coerce.number().nonnegative().optional().catch(undefined),
  segments: z
    .array(z.object({ start: z.coerce.number(), end: z.coerce.number(), text: z.string() }))
    .optional()
    .catch(undefined),
});
type TranscriptionPart = z.infer<typeof transcriptionResponse>;

/**
 * Whether a model answers `verbose_json` with segments: OpenAI's gpt-4o transcription models
 * answer only `json` and `text`; whisper-1 and self-hosted Whisper servers give segments.
 */
export function givesSegments(model: string): boolean {
  return !/^gpt-4o/i.test(model);
}

/** Whisper (or any OpenAI-compatible transcription server). */
export class OpenAiTranscriber implements Transcriber {
  private readonly client: OpenAI;
  private readonly maxUploadBytes: number;

  constructor(private readonly options: OpenAiOptions) {
    this.client = client(options, options.transcriptionBaseURL ?? options.baseURL);
    this.maxUploadBytes = options.maxUploadBytes ?? TRANSCRIPTION_MAX_BYTES;
  }

  transcribe(audio: AudioInput, options: CallOptions = {}): Promise<TranscriptionResult> {
    const { signal } = options;
    return withErrorPrefix(
      MESSAGES.transcriptionFailedPrefix,
      async () => {
        const bytes = await audioBytes(audio.bytes);
        const parts: TranscriptionPart[] = [];
        if (bytes.length <= this.maxUploadBytes) {
          parts.push(await this.transcribePart(bytes, audio.filename, audio.contentType, signal));
        } else {
          const pieces = await splitAudio(bytes, audio.filename, this.maxUploadBytes, signal);
          for (const [index, piece] of pieces.entries()) {
            parts.push(
              await this.transcribePart(piece, `part-${index + 1}.mp3`, "audio/mpeg", signal),
            );
          }
        }
        const text = parts
          .map((part) => part.text.trim())
          .filter(Boolean)
          .join(" ");
        // Each part's segments are timed from that part's start: shifted by the parts before it.
        // Without every part's duration, later parts cannot be placed, so none are kept.
        const segments: TranscriptSegment[] = [];
        let offset = 0;
        for (const part of parts) {
          if (!part.segments || (part.duration === undefined && part !== parts.at(-1))) {
            segments.length = 0;
            break;
          }
          for (const s of part.segments) {
            segments.push({ start: s.start + offset, end: s.end + offset, text: s.text });
          }
          offset += part.duration ?? 0;
        }
        return {
          text,
          duration: estimateDuration(bytes.length),
          engine: this.options.transcriptionModel,
          ...(segments.length > 0 ? { segments } : {}),
        };
      },
      signal,
    );
  }

  private async transcribePart(
    bytes: Buffer,
    filename: string,
    type: string,
    signal: AbortSignal | undefined,
  ): Promise<TranscriptionPart> {
    const file = await toFile(bytes, filename, { type });
    const model = this.options.transcriptionModel;
    // The SDK aborts the request (closing its connection) and stops retrying when `signal` fires.
    const response = givesSegments(model)
      ? await this.client.audio.transcriptions.create(
          {
            file,
            model,
            response_format: "verbose_json",
            timestamp_granularities: ["segment"],
          },
          { signal },
        )
      : await this.client.audio.transcriptions.create({ file, model }, { signal });
    return transcriptionResponse.parse(response);
  }
}

const tagsResponse = z.object({ tags: z.unknown() });

/** Chat completions: plain text for the summary, JSON mode for scores and tags. */
export class OpenAiTextModel implements TextModel {
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiOptions) {
    this.client = client(options, options.baseURL);
  }

  summarize(transcript: string, options: TextOptions = {}): Promise<string> {
    return withErrorPrefix(
      MESSAGES.summarizeFailedPrefix,
      async () => {
        const content = await this.complete(
          PROMPTS.summarySystem(options.language),
          transcript,
          false,
          options,
        );
        const summary = content?.trim();
        if (!summary) throw new Error(MESSAGES.noSummaryGenerated);
        return summary;
      },
      options.signal,
    );
  }

  score(transcript: string, options: TextOptions = {}): Promise<Scores> {
    return withErrorPrefix(
      MESSAGES.scoreFailedPrefix,
      async () =>
        normalizeScores(await this.completeJson(PROMPTS.scoreSystem, transcript, options)),
      options.signal,
    );
  }

  tags(transcript: string, now: Date, options: TextOptions = {}): Promise<string[]> {
    return withErrorPrefix(
      MESSAGES.tagsFailedPrefix,
      async () => {
        const json = await this.completeJson(
          PROMPTS.tagsSystem(now, options.language),
          transcript,
          options,
        );
        const parsed = tagsResponse.safeParse(json);
        // Some models answer a bare array despite the instruction; accept it, validate either way,
        // once control characters are out (they are the model's noise, not the tag's words).
        const tags = parsed.success ? parsed.data.tags : json;
        return validateGeneratedTags(
          Array.isArray(tags)
            ? tags.map((tag) =>
                typeof tag === "string" ? cleanProviderText(tag, { lines: false }) : tag,
              )
            : tags,
        );
      },
      options.signal,
    );
  }

  private async complete(
    system: string,
    transcript: string,
    json: boolean,
    { signal, question, aboutPhoto }: TextOptions,
  ) {
    const response = await this.client.chat.completions.create(
      {
        model: this.options.textModel,
        messages: [
          { role: "system", content: system },
          { role: "user", content: PROMPTS.transcriptMessage(transcript, question, aboutPhoto) },
        ],
        ...(json ? { response_format: { type: "json_object" as const } } : {}),
      },
      { signal },
    );
    return response.choices?.[0]?.message?.content ?? null;
  }

  private async completeJson(
    system: string,
    transcript: string,
    options: CallOptions,
  ): Promise<unknown> {
    const content = await this.complete(system, transcript, true, options);
    if (!content?.trim()) throw new Error(MESSAGES.noResponseContent);
    return JSON.parse(content) as unknown;
  }
}
