import { Trash2 } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast, toastError } from "../../../components/ui/use-toast";

import { useDeleteMemory } from "../api/delete-memory";

const DeleteMemoryDialog = lazy(() =>
  import("./delete-memory-dialog").then((m) => ({ default: m.DeleteMemoryDialog })),
);

/**
 * Delete from a list, with the usual typed confirmation: for a memory whose processing failed (a
 * silent recording cannot be retried into anything), by its owner or the browser that recorded it.
 */
export function DeleteMemoryButton({
  memory,
  compact = false,
}: {
  memory: Memory;
  /** Icon only (in a list row beside other buttons); the name stays for screen readers. */
  compact?: boolean;
}) {
  const remove = useDeleteMemory();
  const [confirming, setConfirming] = useState(false);
  const onDelete = async () => {
    try {
      await remove.mutateAsync(memory.id);
      setConfirming(false);
      toast({ title: MESSAGES.memoryDeleted });
    } catch (error) {
      toastError(MESSAGES.failedDeleteMemory, error);
    }
  };
  return (
    <>
      <Button
        variant={compact ? "ghost" : "outline"}
        size={compact ? "icon" : "sm"}
        className={compact ? "h-11 w-11" : "min-h-11 sm:min-h-8"}
        aria-label={formatMessage(MESSAGES.deleteMemoryNamed, {
          title: memory.title || MESSAGES.untitledMemory,
        })}
        onClick={() => setConfirming(true)}
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        {compact ? null : MESSAGES.deleteMemory}
      </Button>
      {confirming ? (
        <Suspense fallback={null}>
          <DeleteMemoryDialog
            open
            onOpenChange={setConfirming}
            onConfirm={() => void onDelete()}
            pending={remove.isPending}
          />
        </Suspense>
      ) : null}
    </>
  );
}
