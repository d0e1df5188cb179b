import type { Memory } from "../../../../shared/schemas";
import { fetchMemory, retryProcessing, STAGE_NOTICES, startProcessing } from "./processing-api";

/** The server's processing failed (the memory and its audio are kept on the server). */
export class ProcessingFailedError extends Error {
  /** Retrying by itself would only spend money again: the person retries by hand. */
  readonly permanent = true;
  constructor(readonly memory: Memory) {
    super(memory.error ?? "Processing failed");
  }
}

export interface RunOptions {
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Asks the server to make a memory of an upload, then polls it (about once a second), reporting
 * the notice of each stage, until it is saved (resolves) or failed (throws ProcessingFailedError).
 * Sent again for the same upload, it picks up the same memory, and resumes a failed one.
 */
export async function runMemoryProcessing(
  upload: { url: string; recordedAt: string },
  report: (notice: string) => void,
  options: RunOptions = {},
): Promise<Memory> {
  const sleep = options.sleep ?? defaultSleep;
  const pollMs = options.pollMs ?? 1000;
  let memory = await startProcessing({ audioUrl: upload.url, recordedAt: upload.recordedAt });
  if (memory.status === "failed") memory = await retryProcessing(memory.id);
  let shown = "";
  for (;;) {
    if (memory.status === "saved") {
      // The save step is too quick to be seen by polling; its notice still shows.
      if (shown !== STAGE_NOTICES.save) report(STAGE_NOTICES.save);
      return memory;
    }
    if (memory.status === "failed") throw new ProcessingFailedError(memory);
    const notice = STAGE_NOTICES[memory.stage ?? "transcribe"];
    if (notice !== shown) {
      report(notice);
      shown = notice;
    }
    await sleep(pollMs);
    memory = await fetchMemory(memory.id);
  }
}
