import { RefreshCw } from "lucide-react";
import { MESSAGES } from "../../../../shared/messages";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { useRegenerate } from "../processing/use-regenerate";

/**
 * The owner's Regenerate on the memory page: the summary, title, scores and tags are made again
 * from the transcript (after correcting it), with each step's progress notice beside the button.
 */
export function RegenerateButton({ memory }: { memory: Memory }) {
  const { regenerate, notice, pending } = useRegenerate(memory.id);
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        size="sm"
        title={MESSAGES.regenerateHint}
        disabled={pending || memory.status === "processing"}
        onClick={() => void regenerate()}
      >
        <RefreshCw className={pending ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden="true" />
        {MESSAGES.regenerate}
      </Button>
      <p role="status" className="text-sm text-stone-700">
        {notice}
      </p>
    </div>
  );
}
