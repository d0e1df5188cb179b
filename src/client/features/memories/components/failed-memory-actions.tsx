import { Mic } from "lucide-react";
import { useLocation } from "wouter";
import { RELATIVES } from "../../../../shared/relatives";
import { canRetryProcessing } from "../../../../shared/rules";
import type { Memory } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { DeleteMemoryButton } from "./delete-memory-button";
import { RetryButton } from "./retry-button";

/** Takes the family to the recorder: the one on this page (focused), else the home page's. */
export function RecordAgainButton() {
  const [, navigate] = useLocation();
  const onClick = () => {
    const start = document.querySelector<HTMLButtonElement>('[data-testid="recorder"] button');
    if (!start) return navigate("/");
    start.scrollIntoView?.({ block: "center" });
    start.focus();
  };
  return (
    <Button variant="outline" size="sm" className="min-h-11 sm:min-h-8" onClick={onClick}>
      <Mic className="h-4 w-4" aria-hidden="true" />
      {RELATIVES.recordAgain}
    </Button>
  );
}

/**
 * What the owner can do with a memory whose processing failed, in a list: Retry and Delete, or,
 * when Retry cannot help (no speech, recording gone), Record again and Delete. A row of its own
 * under the memory on a phone. Loaded only when a list shows one.
 */
export function FailedMemoryActions({ memory }: { memory: Memory }) {
  return (
    <div className="flex w-full flex-wrap gap-2 sm:w-auto" data-testid="failed-memory-actions">
      {canRetryProcessing(memory.error) ? (
        <RetryButton memory={memory} className="min-h-11 sm:min-h-8" />
      ) : (
        <RecordAgainButton />
      )}
      <DeleteMemoryButton memory={memory} />
    </div>
  );
}
