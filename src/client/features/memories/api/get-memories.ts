import { keepPreviousData, type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { memoryPageSchema, memoryYearsSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { memoriesListUrl, memoryKeys } from "./memory-keys";

/** While a listed memory is still processing, the list refreshes this often to show it finish. */
export const PROCESSING_REFRESH_MS = 3000;

/**
 * Refetches every memory list (after a recording is saved, claimed, edited or deleted). A list fetch
 * already in flight was answered before the change, and invalidation alone would join it when the
 * list has no data yet (TanStack Query dedupes a first fetch), so it is cancelled first.
 */
export async function invalidateMemoryLists(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: memoryKeys.lists() });
  await queryClient.invalidateQueries({ queryKey: memoryKeys.lists() });
}

/** GET /api/memories (or its search): the logged-in user's memories, one page. */
export const ownMemoriesQueryOptions = (page: number, q: string) =>
  queryOptions({
    queryKey: memoryKeys.own(page, q),
    queryFn: () => getJson(memoriesListUrl({ page, q }), memoryPageSchema),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((memory) => memory.status === "processing")
        ? PROCESSING_REFRESH_MS
        : false,
  });

/** The logged-in user's memories (or a search of them), one page. */
export function useMemories(options: { page: number; search: string }) {
  return useQuery(ownMemoriesQueryOptions(options.page, options.search));
}

/** GET /api/users/{username}/memories (or its search): a profile's shared memories, one page. */
export const profileMemoriesQueryOptions = (username: string, page: number, q: string) =>
  queryOptions({
    queryKey: memoryKeys.profile(username, page, q),
    queryFn: () => getJson(memoriesListUrl({ username, page, q }), memoryPageSchema),
    placeholderData: keepPreviousData,
  });

export function useProfileMemories(options: { username: string; page: number; search: string }) {
  return useQuery(profileMemoriesQueryOptions(options.username, options.page, options.search));
}

/** GET …/memories/years: the years a list (own, or a profile's) spans. */
export const memoryYearsQueryOptions = (username: string | undefined, total: number | undefined) =>
  queryOptions({
    queryKey: memoryKeys.years(username, total),
    queryFn: () =>
      getJson(memoriesListUrl({ username, page: 1, q: "" }, "years"), memoryYearsSchema),
    enabled: total !== undefined && total > 0,
  });
