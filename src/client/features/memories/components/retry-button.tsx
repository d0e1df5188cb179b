import { useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toastError } from "../../../components/ui/use-toast";

import { cn } from "../../../lib/cn";
import { invalidateMemoryLists } from "../api/get-memories";
import { memoryKeys } from "../api/memory-keys";
import { retryProcessing } from "../processing/processing-api";

/** The owner's retry for a memory whose processing failed: resumes at the stage that failed. */
export function RetryButton({ memory, className }: { memory: Memory; className?: string }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const retry = async () => {
    setPending(true);
    try {
      const updated = await retryProcessing(memory.id);
      queryClient.setQueryData(memoryKeys.detail(memory.id), updated);
      await invalidateMemoryLists(queryClient);
    } catch (error) {
      toastError(MESSAGES.processingFailed, error);
    } finally {
      setPending(false);
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      className={cn("min-h-11", className)}
      disabled={pending}
      onClick={() => void retry()}
    >
      <RotateCcw className="h-4 w-4" aria-hidden="true" />
      {MESSAGES.retry}
    </Button>
  );
}
