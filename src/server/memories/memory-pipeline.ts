import { buffer } from "node:stream/consumers";
import { z } from "zod";
import { TEXT_MAX_LENGTH } from "../../shared/constants";
import { MESSAGES, type ProcessingErrorCode } from "../../shared/messages";
import {
  estimateDuration,
  InvalidTagFormatError,
  normalizeScores,
  titleFromSummary,
  validateGeneratedTags,
} from "../../shared/rules";
import { PIPELINE_STAGES, type PipelineStage } from "../../shared/schemas";
import { cleanSegments, transcriptSegmentsSchema } from "../../shared/transcript";
import { AiError, type AiProviders, type TextOptions } from "../ai/ai";
import type { AudioService } from "../audio/audio.service";
import type { Executor, Transactions } from "../db/transactions";
import type { JobKind } from "../jobs/job-kinds";
import type { Job } from "../jobs/jobs.repo";
import type { JobHandler } from "../jobs/worker";
import type { MemoriesRepo, MemoryRow } from "./memories.repo";

export const PROCESS_MEMORY_JOB = "process-memory" satisfies JobKind;

// Whatever a provider returns is checked again here, whichever provider it was.
const transcriptionSchema = z.object({
  text: z.string().max(TEXT_MAX_LENGTH),
  duration: z.number().nonnegative(),
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/)
    .optional()
    .catch(undefined),
  engine: z.string().max(100).optional().catch(undefined),
  segments: transcriptSegmentsSchema.optional().catch(undefined),
});
const summarySchema = z.string().trim().min(1, MESSAGES.noSummaryGenerated).max(TEXT_MAX_LENGTH);

/**
 * What the text steps are told: the signal, and the spoken language when the speech engine kept
 * it on the memory (`memories.language`, ISO 639-1, migration 0007), so summary, title and tags are written in it;
 * without it the text model works the language out from the transcript.
 */
function textOptions(row: MemoryRow, signal: AbortSignal): TextOptions {
  return row.language ? { signal, language: row.language } : { signal };
}

/** A failure the user sees on the memory; the job itself is finished (no automatic retry). */
class StageFailure extends Error {
  constructor(readonly code: ProcessingErrorCode) {
    super(code);
  }
}

/**
 * The code a stage's failure stores on the memory; the raw error goes to the log only. Tags a
 * provider made in the wrong format say so (`tag.invalid_format`), wherever they were checked.
 */
function failureCode(stage: PipelineStage, error: unknown): ProcessingErrorCode {
  if (error instanceof StageFailure) return error.code;
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof InvalidTagFormatError) return "tag.invalid_format";
  }
  return `${stage}.failed`;
}

/** Where a stage's raw failure is written (the app's logger). */
export interface PipelineLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * How a stage ended: done; `failed` (recorded on the memory for the owner to retry); `error`
 * (database or storage trouble, left to the queue's retries); `aborted` (the worker gave up).
 */
export type StageOutcome = "done" | "failed" | "error" | "aborted";

export interface PipelineOptions {
  now?: () => Date;
  log?: PipelineLog;
  /** Told how long each stage run took and how it ended (the metrics). */
  onStage?: (stage: PipelineStage, outcome: StageOutcome, seconds: number) => void;
  /** Whether a memory has a photo by now (a story told about one): a note for the summary. */
  hasPhotos?: (memoryId: string) => Promise<boolean>;
  /** Runs in the transaction that saves a memory (relatives' news queues its mail there). */
  onSaved?: { transactions: Transactions; run(memory: MemoryRow, trx: Executor): Promise<void> };
}

/**
 * The pipeline of one memory: transcribe, summarize, score, tag, save. Each stage is recorded on
 * the memory before it runs and its output stored after, so progress is visible and a retry (or a
 * restart after a crash) resumes at the stage that did not finish.
 */
export class MemoryPipeline implements JobHandler {
  private readonly now: () => Date;
  private readonly log: PipelineLog;
  private readonly onStage: NonNullable<PipelineOptions["onStage"]>;
  private readonly hasPhotos: NonNullable<PipelineOptions["hasPhotos"]>;
  private readonly onSaved: PipelineOptions["onSaved"];

  constructor(
    private readonly memories: MemoriesRepo,
    private readonly audio: Pick<AudioService, "findById" | "open">,
    private readonly ai: AiProviders,
    options: PipelineOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? { warn() {} };
    this.onStage = options.onStage ?? (() => {});
    this.hasPhotos = options.hasPhotos ?? (async () => false);
    this.onSaved = options.onSaved;
  }

  private async save(row: MemoryRow): Promise<void> {
    const { onSaved } = this;
    if (!onSaved) {
      await this.memories.markSaved(row.id);
      return;
    }
    await onSaved.transactions.run(async (trx) => {
      if (await this.memories.markSaved(row.id, trx)) await onSaved.run(row, trx);
    });
  }

  /**
   * Once `signal` is aborted (the worker lost its lease), the provider call in flight stops and
   * nothing more is written: every write below is preceded by `signal.throwIfAborted()`.
   */
  async run(
    memoryId: string,
    _job?: Job,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<void> {
    const start = await this.memories.findById(memoryId);
    // Deleted meanwhile, already saved, or failed (waiting for the owner's retry): nothing to do.
    if (start?.status !== "processing") return;
    const first = PIPELINE_STAGES.indexOf((start.stage as PipelineStage | null) ?? "transcribe");
    for (const stage of PIPELINE_STAGES.slice(Math.max(0, first))) {
      signal.throwIfAborted();
      // Not processing any more (deleted, or the owner's state changed it): stop writing.
      if (!(await this.memories.setStage(memoryId, stage))) return;
      const row = await this.memories.findById(memoryId);
      if (!row) return;
      const began = performance.now();
      const ended = (outcome: StageOutcome) =>
        this.onStage(stage, outcome, (performance.now() - began) / 1000);
      try {
        const finished = await this.runStage(stage, row, signal);
        ended("done");
        if (finished) return;
      } catch (error) {
        // An aborted call is the worker giving up, not the stage failing: nothing is recorded.
        if (signal.aborted) ended("aborted");
        signal.throwIfAborted();
        if (
          error instanceof AiError ||
          error instanceof StageFailure ||
          error instanceof z.ZodError
        ) {
          ended("failed");
          this.log.warn({ memoryId, stage, err: error }, "memory processing failed");
          await this.memories.markFailed(memoryId, stage, failureCode(stage, error));
          return;
        }
        // Database or storage trouble: the queue retries with backoff, then calls giveUp.
        ended("error");
        throw error;
      }
    }
  }

  /**
   * The queue gave up (repeated crashes or infrastructure errors; it logged each): the memory shows
   * it failed, with a product message.
   */
  async giveUp(memoryId: string, error: Error): Promise<void> {
    const row = await this.memories.findById(memoryId);
    if (row?.status !== "processing") return;
    const stage = (row.stage as PipelineStage | null) ?? "transcribe";
    await this.memories.markFailed(memoryId, stage, failureCode(stage, error));
  }

  /** Runs one stage; true when the memory is finished without the stages after it. */
  private async runStage(
    stage: PipelineStage,
    row: MemoryRow,
    signal: AbortSignal,
  ): Promise<boolean | undefined> {
    const { textModel } = this.ai;
    switch (stage) {
      case "transcribe": {
        const audio = row.audio_id ? await this.audio.findById(row.audio_id) : null;
        if (!audio) {
          throw new StageFailure("transcribe.recording_missing");
        }
        // Read whole before the provider is called (every provider buffers it anyway): storage
        // trouble is then the queue's to retry, never mistaken for the provider's failure.
        const bytes = await buffer(this.audio.open(audio));
        const result = transcriptionSchema.parse(
          await this.ai.transcriber.transcribe(
            {
              bytes,
              filename: audio.storage_key,
              contentType: audio.content_type,
            },
            { signal },
          ),
        );
        const transcript = result.text.trim();
        if (!transcript) throw new StageFailure("transcribe.no_speech");
        signal.throwIfAborted();
        const segments = cleanSegments(result.segments ?? [], 0);
        if (row.transcript_edited === 1) {
          // The owner's edit stays; the new transcription waits beside it for them to choose
          // (ADR 0045). What was made from their text stays too; a memory that has none yet (its
          // first transcription failed and they typed it) goes on to be made from their text.
          await this.memories.saveProposal(row.id, {
            transcript,
            segments,
            engine: result.engine ?? this.ai.name,
          });
          if (!row.summary) return false;
          await this.save(row);
          return true;
        }
        // Spec: the estimated duration is the audio size divided by 16000.
        await this.memories.saveStageOutput(row.id, {
          transcript,
          duration: estimateDuration(audio.bytes),
          language: result.language ?? null,
          transcriptEngine: result.engine ?? null,
          transcriptSegments: segments,
        });
        return;
      }
      case "summarize": {
        const summary = summarySchema.parse(
          await textModel.summarize(row.transcript, {
            ...textOptions(row, signal),
            // The question the memory answers is context for the summary only.
            ...(row.question ? { question: row.question } : {}),
            ...((await this.hasPhotos(row.id)) ? { aboutPhoto: true } : {}),
          }),
        );
        signal.throwIfAborted();
        await this.memories.saveStageOutput(row.id, { summary, title: titleFromSummary(summary) });
        return;
      }
      case "score": {
        const scores = normalizeScores(
          await textModel.score(row.transcript, textOptions(row, signal)),
        );
        signal.throwIfAborted();
        await this.memories.saveStageOutput(row.id, { scores });
        return;
      }
      case "tag": {
        const generated = await textModel.tags(
          row.transcript,
          this.now(),
          textOptions(row, signal),
        );
        let tags: string[];
        try {
          tags = validateGeneratedTags(generated);
        } catch {
          throw new StageFailure("tag.invalid_format");
        }
        signal.throwIfAborted();
        await this.memories.saveStageOutput(row.id, { tags });
        return;
      }
      case "save":
        signal.throwIfAborted();
        await this.save(row);
        return;
    }
  }
}
