import type { MemoryFacts } from "./authorization";
import type { Memory } from "./schemas";

/** What the authorization rules read of a memory as the API sends it. */
export function memoryFacts(memory: Memory): MemoryFacts {
  return {
    user_id: memory.user_id,
    status: memory.status,
    journal_id: memory.journalId,
    storyteller_id: memory.storyteller?.id ?? null,
  };
}
