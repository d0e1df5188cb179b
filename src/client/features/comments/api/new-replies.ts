import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { newRepliesSchema } from "../../../../shared/schemas";
import { apiRequest, getJson } from "../../../lib/api-client";

export const newRepliesKeys = {
  all: ["new-replies"] as const,
  journal: (journalId: string) => ["new-replies", { journalId }] as const,
};

/** GET /api/journals/{id}/new-replies: the caller's own stories with replies they have not heard. */
export function newRepliesQueryOptions(journalId: string) {
  return queryOptions({
    queryKey: newRepliesKeys.journal(journalId),
    queryFn: () =>
      getJson(`/api/journals/${encodeURIComponent(journalId)}/new-replies`, newRepliesSchema),
  });
}

export function useNewReplies(journalId: string | null, enabled: boolean) {
  return useQuery({ ...newRepliesQueryOptions(journalId ?? ""), enabled: enabled && !!journalId });
}

/** POST /api/memories/{id}/replies/seen: the storyteller opened the story; its replies are heard. */
export function useMarkRepliesSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memoryId: string) =>
      apiRequest("POST", `/api/memories/${encodeURIComponent(memoryId)}/replies/seen`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: newRepliesKeys.all }),
  });
}
