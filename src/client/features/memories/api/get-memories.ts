import { keepPreviousData, type QueryClient, useQuery } from "@tanstack/react-query";
import type { MemoryPage } from "../../../../shared/schemas";
import { isMemoryListKey, memoriesListUrl, profileMemoriesUrl } from "./memory-keys";

/** While a listed memory is still processing, the list refreshes this often to show it finish. */
export const PROCESSING_REFRESH_MS = 3000;

/**
 * Refetches every memory list (after a recording is saved, claimed, edited or deleted). A list fetch
 * already in flight was answered before the change, and invalidation alone would join it when the
 * list has no data yet (TanStack Query dedupes a first fetch), so it is cancelled first.
 */
export async function invalidateMemoryLists(queryClient: QueryClient): Promise<void> {
  const predicate = (query: { queryKey: readonly unknown[] }) => isMemoryListKey(query.queryKey);
  await queryClient.cancelQueries({ predicate });
  await queryClient.invalidateQueries({ predicate });
}

/** The logged-in user's memories (or a search of them), one page; only fetched when enabled. */
export function useMemories(options: { page: number; search: string; enabled: boolean }) {
  return useQuery<MemoryPage>({
    queryKey: [memoriesListUrl(options.page, options.search)],
    enabled: options.enabled,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((memory) => memory.status === "processing")
        ? PROCESSING_REFRESH_MS
        : false,
  });
}

/** A public profile's shared memories (or a search of them), one page. */
export function useProfileMemories(options: { username: string; page: number; search: string }) {
  return useQuery<MemoryPage>({
    queryKey: [profileMemoriesUrl(options.username, options.page, options.search)],
    placeholderData: keepPreviousData,
  });
}
