import { keepPreviousData, type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { memoryPageSchema, memoryYearsSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { journalMemoriesUrl, memoryKeys, profileMemoriesUrl, type YearsOf } from "./memory-keys";

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

/** GET /api/journals/{id}/memories: a journal's memories (searched, one storyteller's), one page. */
export const journalMemoriesQueryOptions = (
  journalId: string,
  page: number,
  q: string,
  storyteller: string,
) =>
  queryOptions({
    queryKey: memoryKeys.journal(journalId, page, q, storyteller),
    queryFn: () =>
      getJson(journalMemoriesUrl({ journalId, page, q, storyteller }), memoryPageSchema),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((memory) => memory.status === "processing")
        ? PROCESSING_REFRESH_MS
        : false,
  });

/** The open journal's memories (searched, one storyteller's), one page; nothing without a journal. */
export function useJournalMemories(options: {
  journalId: string | undefined;
  page: number;
  search: string;
  storyteller: string;
}) {
  const { journalId = "", page, search, storyteller } = options;
  return useQuery({
    ...journalMemoriesQueryOptions(journalId, page, search, storyteller),
    enabled: journalId !== "",
  });
}

/** GET /api/users/{username}/memories (or its search): a profile's shared memories, one page. */
export const profileMemoriesQueryOptions = (username: string, page: number, q: string) =>
  queryOptions({
    queryKey: memoryKeys.profile(username, page, q),
    queryFn: () => getJson(profileMemoriesUrl({ username, page, q }), memoryPageSchema),
    placeholderData: keepPreviousData,
  });

export function useProfileMemories(options: { username: string; page: number; search: string }) {
  return useQuery(profileMemoriesQueryOptions(options.username, options.page, options.search));
}

/** GET …/years: the years a list (a journal's, or a profile's) spans. */
export const memoryYearsQueryOptions = (list: YearsOf, total: number | undefined) =>
  queryOptions({
    queryKey: memoryKeys.years(list, total),
    queryFn: () =>
      getJson(
        "username" in list
          ? profileMemoriesUrl({ username: list.username, page: 1, q: "" }, "years")
          : journalMemoriesUrl({ ...list, page: 1, q: "" }, "years"),
        memoryYearsSchema,
      ),
    enabled: total !== undefined && total > 0,
  });
