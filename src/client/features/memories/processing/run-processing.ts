import { messageFor } from "../../../../shared/messages";
import type { Memory, PipelineStage } from "../../../../shared/schemas";
import { ProductError } from "../../../lib/api-client";
import type { ReportNotice } from "../../../lib/upload-queue";
import {
  fetchMemory,
  retryProcessing,
  STAGE_ORDER,
  stageNotice,
  startProcessing,
} from "./processing-api";

/** What following a memory's processing reads of it (a memory, or a story through its link). */
export type Followed = Pick<Memory, "id" | "status" | "stage" | "error">;

/** The server's processing failed (the memory and its audio are kept on the server). */
export class ProcessingFailedError<M extends Followed = Memory> extends ProductError {
  /** Retrying by itself would only spend money again: the person retries by hand. */
  readonly permanent = true;
  constructor(readonly memory: M) {
    super(messageFor(memory.error, "processing.failed"));
  }
}

export interface RunOptions {
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Runs once the server has the memory, before it is followed (a story's photo is added then). */
  onStarted?: (memory: Memory) => Promise<void>;
}

/** How often a memory the server is processing is asked for again. */
export const PROCESSING_POLL_MS = 1000;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Asks the server to make a memory of an upload, then follows it (see followProcessing) until it
 * is saved (resolves) or failed (throws ProcessingFailedError). Sent again for the same upload, it
 * picks up the same memory, and resumes a failed one.
 */
export async function runMemoryProcessing(
  upload: {
    url: string;
    recordedAt: string;
    question?: string | undefined;
    journalId?: string | undefined;
  },
  report: ReportNotice,
  options: RunOptions = {},
): Promise<Memory> {
  let memory = await startProcessing({
    audioUrl: upload.url,
    recordedAt: upload.recordedAt,
    ...(upload.question ? { question: upload.question } : {}),
    ...(upload.journalId ? { journalId: upload.journalId } : {}),
  });
  await options.onStarted?.(memory);
  if (memory.status === "failed") memory = await retryProcessing(memory.id);
  return followProcessing(memory, report, options);
}

/**
 * Polls a memory the server is processing (about once a second) until it is saved (resolves) or
 * failed (throws ProcessingFailedError): a new recording, a retry, or a regenerate.
 *
 * Reports the notice of every stage in order: the pipeline runs its stages one after another, so
 * stages that began and ended between two polls are reported too (docs/adr/0013). The first notice
 * is the stage the server is at (a resumed or regenerated memory starts past transcribing). Before
 * it returns or throws, it waits until the last notice has been shown (when `report` says so with
 * a promise).
 */
export function followProcessing(
  started: Memory,
  report: ReportNotice,
  options: RunOptions = {},
): Promise<Memory> {
  return followStages(started, fetchMemory, report, options);
}

/** followProcessing for anything that reports a memory's state, read again by `fetch`. */
export async function followStages<M extends Followed>(
  started: M,
  fetch: (id: string) => Promise<M>,
  report: ReportNotice,
  options: Omit<RunOptions, "onStarted"> = {},
): Promise<M> {
  const sleep = options.sleep ?? defaultSleep;
  const pollMs = options.pollMs ?? PROCESSING_POLL_MS;
  let memory = started;
  /** Index in STAGE_ORDER of the last stage whose notice was reported. */
  let reported = -1;
  let lastNotice: Promise<void> = Promise.resolve();
  const reportThrough = (stage: PipelineStage) => {
    const target = STAGE_ORDER.indexOf(stage);
    for (let i = reported === -1 ? target : reported + 1; i <= target; i++) {
      const passed = STAGE_ORDER[i];
      if (passed) lastNotice = Promise.resolve(report(stageNotice(passed)));
    }
    reported = Math.max(reported, target);
  };
  for (;;) {
    if (memory.status === "saved") {
      reportThrough("save");
      await lastNotice;
      return memory;
    }
    if (memory.status === "failed") {
      if (memory.stage) reportThrough(memory.stage);
      await lastNotice;
      throw new ProcessingFailedError(memory);
    }
    reportThrough(memory.stage ?? "transcribe");
    await sleep(pollMs);
    memory = await fetch(memory.id);
  }
}
