import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { journalKeys, membersUrl } from "./journal-keys";

/**
 * DELETE /api/journals/{id}/members/{memberId}: an organizer removes a member, or a member leaves
 * (their own id). The journals are read again: one who left no longer has it.
 */
export function useRemoveMember(journalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (memberId: string) => {
      await apiRequest("DELETE", membersUrl(journalId, memberId));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: journalKeys.all }),
  });
}
