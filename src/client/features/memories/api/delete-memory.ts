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
      await invalidateMemoryLists(queryClient);
    },
  });
}
