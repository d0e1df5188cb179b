import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { UNDO_TOAST_DURATION_MS } from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { toast, toastError } from "../../../components/ui/use-toast";

import { NoticeSequencer } from "../../../lib/notice-sequencer";
import { invalidateMemoryLists } from "../api/get-memories";
import { memoryKeys } from "../api/memory-keys";
import { regenerateMemory } from "./processing-api";
import { followProcessing, ProcessingFailedError } from "./run-processing";

/**
 * Has the server make a memory's summary, title, scores and tags again from its transcript (or,
 * with `start` = retranscribeMemory, the transcript too), and follows it with the recorder's
 * progress notices ("Summarizing...", "Scoring...", ...), each shown for its minimum time
 * (docs/adr/0013). `notice` is the one to show now ("" when idle).
 */
export function useRegenerate(
  memoryId: string,
  start: (id: string) => Promise<Memory> = regenerateMemory,
  failedTitle: string = MESSAGES.regenerateFailed,
) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState("");
  const [pending, setPending] = useState(false);
  const running = useRef<NoticeSequencer | null>(null);
  // Leaving the page stops the notices' clock; the server carries on regardless.
  useEffect(() => () => running.current?.stop(), []);

  const show = (memory: Memory) => queryClient.setQueryData(memoryKeys.detail(memory.id), memory);

  /**
   * Resolves with the saved memory, or null when it failed (a toast says why). With `undo`, the
   * 'Memory updated!' toast offers Undo, which calls it with the saved memory.
   */
  const regenerate = async (undo?: (saved: Memory) => Promise<void>): Promise<Memory | null> => {
    const notices = new NoticeSequencer(setNotice);
    running.current = notices;
    setPending(true);
    try {
      const started = await start(memoryId);
      show(started);
      const saved = await followProcessing(started, notices.push);
      show(saved);
      await invalidateMemoryLists(queryClient);
      toast(
        undo
          ? {
              title: MESSAGES.memoryUpdated,
              action: { label: MESSAGES.undo, onClick: () => void undo(saved) },
              duration: UNDO_TOAST_DURATION_MS,
            }
          : { title: MESSAGES.memoryUpdated },
      );
      return saved;
    } catch (error) {
      if (error instanceof ProcessingFailedError) {
        show(error.memory);
        await invalidateMemoryLists(queryClient);
      }
      toastError(failedTitle, error);
      return null;
    } finally {
      notices.reset();
      running.current = null;
      setPending(false);
    }
  };
  return { regenerate, notice, pending };
}
