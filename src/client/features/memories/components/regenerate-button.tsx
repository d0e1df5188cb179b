import { useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast, toastError } from "../../../components/ui/use-toast";

import { memoryKeys } from "../api/memory-keys";
import { toUpdateBody, useUpdateMemory } from "../api/update-memory";
import { useRegenerate } from "../processing/use-regenerate";

const ConfirmDialog = lazy(() =>
  import("../../../components/ui/confirm-dialog").then((m) => ({ default: m.ConfirmDialog })),
);

/**
 * The owner's Regenerate on the memory page: the summary, title, scores and tags are made again
 * from the transcript (after correcting it), with each step's progress notice beside the button.
 * It replaces the owner's own words, so it asks first, and its 'Memory updated!' offers Undo:
 * the title, summary and tags from before, saved back through the usual update.
 */
export function RegenerateButton({ memory }: { memory: Memory }) {
  const { regenerate, notice, pending } = useRegenerate(memory.id);
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const update = useUpdateMemory();

  const restore = (before: Memory) => async (saved: Memory) => {
    // The memory as it is now (it may have changed since), with the words from before.
    const now = queryClient.getQueryData<Memory>(memoryKeys.detail(saved.id)) ?? saved;
    try {
      await update.mutateAsync({
        id: saved.id,
        body: toUpdateBody(now, {
          title: before.title,
          summary: before.summary,
          tags: before.tags,
        }),
      });
      toast({ title: MESSAGES.regenerateUndone });
    } catch (error) {
      toastError(MESSAGES.failedUpdateMemory, error);
    }
  };

  const onConfirm = () => {
    setConfirming(false);
    void regenerate(restore(memory));
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        size="sm"
        className="min-h-11"
        title={MESSAGES.regenerateHint}
        disabled={pending || memory.status === "processing"}
        onClick={() => setConfirming(true)}
      >
        <RefreshCw className={pending ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden="true" />
        {MESSAGES.regenerate}
      </Button>
      <p role="status" className="text-sm text-stone-700">
        {notice}
      </p>
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            title={MESSAGES.regenerateConfirmTitle}
            description={MESSAGES.regenerateConfirmDescription}
            action={MESSAGES.regenerateConfirm}
            onOpenChange={setConfirming}
            onConfirm={onConfirm}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
