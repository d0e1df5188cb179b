import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invitationSchema, joinedSchema } from "../../../../shared/schemas";
import { getJson, requestJson } from "../../../lib/api-client";
import { invitationUrl, journalKeys } from "./journal-keys";

/** GET /api/invitations/{token} (public): what the join page offers; 404 once it is dead. */
export const invitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: journalKeys.invitation(token),
    queryFn: () => getJson(invitationUrl(token), invitationSchema),
  });

export function useInvitation(token: string) {
  return useQuery(invitationQueryOptions(token));
}

/** POST /api/invitations/{token} (logged in): joins; the user's journals are read again. */
export function useJoinJournal(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestJson("POST", invitationUrl(token), joinedSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: journalKeys.all }),
  });
}
