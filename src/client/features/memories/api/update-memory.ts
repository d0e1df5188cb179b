import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Memory, MemoryUpdateBody } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { invalidateMemoryLists } from "./get-memories";
import { memoryUrl } from "./memory-keys";

/** The fields PUT /api/memories/{id} takes, from a memory with some of them changed. */
export function toUpdateBody(
  memory: Memory,
  changes: Partial<MemoryUpdateBody> = {},
): MemoryUpdateBody {
  return {
    title: memory.title,
    transcript: memory.transcript,
    summary: memory.summary,
    recordedAt: memory.recordedAt,
    tags: memory.tags,
    ...changes,
  };
}

/** PUT the full memory; on success the memory and every list showing it are refreshed. */
export function useUpdateMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: MemoryUpdateBody }) => {
      const res = await apiRequest("PUT", memoryUrl(id), body);
      return (await res.json()) as Memory;
    },
    onSuccess: async (memory) => {
      queryClient.setQueryData([memoryUrl(memory.id)], memory);
      await invalidateMemoryLists(queryClient);
    },
  });
}
