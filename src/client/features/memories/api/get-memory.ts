import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { PAGE_MEMORY_OWNER_SCRIPT_ID, PAGE_MEMORY_SCRIPT_ID } from "../../../../shared/constants";
import { type Memory, type MemoryOwner, memorySchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { memoryKeys, memoryUrl } from "./memory-keys";

/** GET /api/memories/{id}. */
export const memoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: memoryKeys.detail(id),
    queryFn: () => getJson(memoryUrl(id), memorySchema),
    // While the server processes it (e.g. after Retry), follow its stages until it settles.
    refetchInterval: (query) => (query.state.data?.status === "processing" ? 1500 : false),
  });

export function useMemory(id: string) {
  return useQuery(memoryQueryOptions(id));
}

/** A data block's JSON, and the block leaves the page; undefined when absent or not JSON. */
function takeDataBlock(id: string): unknown {
  const element = document.getElementById(id);
  const text = element?.textContent;
  element?.remove();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * At start-up: the memory the server put in the memory page it served (what GET /api/memories/{id}
 * answered the same browser, ADR 0031) and whose it is go into the query cache, and their blocks
 * leave the page, so a later query for them (after a logout, or once dropped from the cache) asks
 * the API. Taken as the server wrote them (it checked them against its schemas), as the session
 * user and the question are: parsing them here would bring zod's core into the first download.
 * A block that is not JSON or names no memory is ignored: the page then asks the API.
 */
export function seedEmbeddedMemory(queryClient: QueryClient): void {
  const memory = takeDataBlock(PAGE_MEMORY_SCRIPT_ID) as Memory | undefined;
  const owner = takeDataBlock(PAGE_MEMORY_OWNER_SCRIPT_ID) as MemoryOwner | undefined;
  if (typeof memory?.id !== "string") return;
  queryClient.setQueryData(memoryKeys.detail(memory.id), memory);
  if (owner?.owner !== undefined) queryClient.setQueryData(memoryKeys.owner(memory.id), owner);
}
