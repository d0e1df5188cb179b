import type { QueryClient } from "@tanstack/react-query";
import type { Memory } from "../../../../shared/schemas";
import { errorMessage } from "../../../lib/api-client";
import { invalidateMemoryLists } from "../api/get-memories";
import { memoryKeys } from "../api/memory-keys";
import { claimMemory } from "./processing-api";

export interface ClaimOutcome {
  claimed: Memory[];
  /** The server's reason for each memory that could not be claimed (window closed, already claimed). */
  failures: string[];
}

/**
 * Attaches memories recorded in this browser without an account to the account now logged in
 * (POST /api/memories/{id}/claim, one by one), then leaves every list showing the result: list
 * fetches answered before the claim are cancelled, not joined (see invalidateMemoryLists).
 */
export async function claimMemories(
  queryClient: QueryClient,
  ids: readonly string[],
): Promise<ClaimOutcome> {
  const outcome: ClaimOutcome = { claimed: [], failures: [] };
  for (const id of ids) {
    try {
      const memory = await claimMemory(id);
      queryClient.setQueryData(memoryKeys.detail(id), memory);
      outcome.claimed.push(memory);
    } catch (error) {
      outcome.failures.push(errorMessage(error));
    }
  }
  await invalidateMemoryLists(queryClient);
  return outcome;
}
