import { queryOptions, useQuery } from "@tanstack/react-query";
import { PAGE_MEMORY_SCRIPT_ID } from "../../../../shared/constants";
import type { Memory } from "../../../../shared/schemas";
import { memoryUrl } from "./memory-keys";

/**
 * The memory the server put in the memory page it served (what GET /api/memories/{id} answered the
 * same browser), when it is the one asked for; else undefined, and the page asks the API. Taken
 * once and removed: a query for it built again later (after a logout, or once it was dropped from
 * the cache) asks the API, never an old copy.
 */
export function takeEmbeddedMemory(id: string): Memory | undefined {
  const element = document.getElementById(PAGE_MEMORY_SCRIPT_ID);
  const text = element?.textContent;
  element?.remove();
  if (!text) return undefined;
  try {
    const memory = JSON.parse(text) as Memory;
    return memory.id === id ? memory : undefined;
  } catch {
    return undefined;
  }
}

/** GET /api/memories/{id}: first from the page, when it carries this memory (ADR 0031). */
export const memoryQueryOptions = (id: string) =>
  queryOptions<Memory>({
    queryKey: [memoryUrl(id)],
    initialData: () => takeEmbeddedMemory(id),
    // While the server processes it (e.g. after Retry), follow its stages until it settles.
    refetchInterval: (query) => (query.state.data?.status === "processing" ? 1500 : false),
  });

export function useMemory(id: string) {
  return useQuery(memoryQueryOptions(id));
}
