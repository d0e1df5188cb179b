import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { invalidateMemoryLists } from "./get-memories";
import { memoryKeys, memoryUrl } from "./memory-keys";

export function useDeleteMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest("DELETE", memoryUrl(id));
      return id;
    },
    onSuccess: async (id) => {
      queryClient.removeQueries({ queryKey: memoryKeys.detail(id) });
      // A list shown again before its refetch answers (the home page after a memory's page) must
      // not show the memory just deleted.
      queryClient.setQueriesData<{ items: { id: string }[] }>(
        { queryKey: memoryKeys.lists() },
        (list) => list && { ...list, items: list.items.filter((memory) => memory.id !== id) },
      );
      await invalidateMemoryLists(queryClient);
    },
  });
}
