import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Memory, type MemoryUpdateBody, memorySchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { invalidateMemoryLists } from "./get-memories";
import { memoryKeys, memoryUrl } from "./memory-keys";

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
      return requestJson("PUT", memoryUrl(id), memorySchema, body);
    },
    onSuccess: async (memory) => {
      queryClient.setQueryData(memoryKeys.detail(memory.id), memory);
      await invalidateMemoryLists(queryClient);
    },
  });
}
