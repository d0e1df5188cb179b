import type { QueryClient } from "@tanstack/react-query";
import type { Memory } from "../../../../shared/schemas";
import { errorMessage } from "../../../lib/api-client";
import { invalidateMemoryLists } from "../api/get-memories";
import { memoryUrl } from "../api/memory-keys";
import { claimMemory } from "./processing-api";

/**
 * Memories a save-account dialog is about to claim: the offer made after logging in leaves them
 * out, so one memory is never offered twice while its claim is on its way.
 */
const reserved = new Set<string>();

export function reserveClaim(id: string): void {
  reserved.add(id);
}

export function releaseClaim(id: string): void {
  reserved.delete(id);
}

export function isClaimReserved(id: string): boolean {
  return reserved.has(id);
}

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
      queryClient.setQueryData([memoryUrl(id)], memory);
      outcome.claimed.push(memory);
    } catch (error) {
      outcome.failures.push(errorMessage(error));
    }
  }
  await invalidateMemoryLists(queryClient);
  return outcome;
}
