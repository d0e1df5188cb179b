import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { MemoryPage } from "../../../../shared/schemas";
import { memoriesListUrl, profileMemoriesUrl } from "./memory-keys";

/** The logged-in user's memories (or a search of them), one page; only fetched when enabled. */
export function useMemories(options: { page: number; search: string; enabled: boolean }) {
  return useQuery<MemoryPage>({
    queryKey: [memoriesListUrl(options.page, options.search)],
    enabled: options.enabled,
    placeholderData: keepPreviousData,
  });
}

/** A public profile's shared memories (or a search of them), one page. */
export function useProfileMemories(options: { username: string; page: number; search: string }) {
  return useQuery<MemoryPage>({
    queryKey: [profileMemoriesUrl(options.username, options.page, options.search)],
    placeholderData: keepPreviousData,
  });
}
