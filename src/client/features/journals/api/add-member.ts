import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type MemberCreateBody, memberSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { journalKeys, membersUrl } from "./journal-keys";

/** POST /api/journals/{id}/members (organizer): adds a member; an email mails the invitation. */
export function useAddMember(journalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberCreateBody) =>
      requestJson("POST", membersUrl(journalId), memberSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: journalKeys.members(journalId) }),
  });
}
