import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type MemberUpdateBody, memberSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { journalKeys, membersUrl } from "./journal-keys";

/**
 * PATCH /api/journals/{id}/members/{memberId} (organizer): changes a role. The journals are read
 * again too: an organizer who made themselves a relative may no longer manage.
 */
export function useChangeRole(journalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, ...body }: MemberUpdateBody & { memberId: string }) =>
      requestJson("PATCH", membersUrl(journalId, memberId), memberSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: journalKeys.all }),
  });
}
