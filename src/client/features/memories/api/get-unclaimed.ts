import { useQuery } from "@tanstack/react-query";
import type { UnclaimedMemories } from "../../../../shared/schemas";
import { PROCESSING_REFRESH_MS } from "./get-memories";
import { UNCLAIMED_URL } from "./memory-keys";

/**
 * GET /api/memories/unclaimed: what this browser recorded without an account and can still save
 * to one (the server knows the browser by its visitor cookie, logged in or not).
 */
export function useUnclaimedMemories() {
  return useQuery<UnclaimedMemories>({
    queryKey: [UNCLAIMED_URL],
    refetchInterval: (query) =>
      query.state.data?.items.some((memory) => memory.status === "processing")
        ? PROCESSING_REFRESH_MS
        : false,
  });
}
