import { queryOptions, useQuery } from "@tanstack/react-query";
import { unclaimedMemoriesSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { PROCESSING_REFRESH_MS } from "./get-memories";
import { memoryKeys, UNCLAIMED_URL } from "./memory-keys";

/**
 * GET /api/memories/unclaimed: what this browser recorded without an account and can still save
 * to one (the server knows the browser by its visitor cookie, logged in or not).
 */
export const unclaimedQueryOptions = () =>
  queryOptions({
    queryKey: memoryKeys.unclaimed(),
    queryFn: () => getJson(UNCLAIMED_URL, unclaimedMemoriesSchema),
  });

/** The unclaimed memories, refreshed while one is still processing. */
export function useUnclaimedMemories() {
  return useQuery({
    ...unclaimedQueryOptions(),
    refetchInterval: (query) =>
      query.state.data?.items.some((memory) => memory.status === "processing")
        ? PROCESSING_REFRESH_MS
        : false,
  });
}
