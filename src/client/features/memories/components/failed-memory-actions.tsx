import type { Memory } from "../../../../shared/schemas";
import { DeleteMemoryButton } from "./delete-memory-button";
import { RetryButton } from "./retry-button";

/**
 * What the owner can do with a memory whose processing failed, in a list: Retry, or Delete (a
 * silent recording cannot be retried into anything). Loaded only when a list shows one.
 */
export function FailedMemoryActions({ memory }: { memory: Memory }) {
  return (
    <>
      <RetryButton memory={memory} />
      <DeleteMemoryButton memory={memory} compact />
    </>
  );
}
