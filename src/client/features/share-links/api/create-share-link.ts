import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type CreatedShareLink,
  type CreateShareLinkBody,
  createdShareLinkSchema,
} from "../../../../shared/share-links";
import { requestJson } from "../../../lib/api-client";
import { useJournalParam, withJournal } from "../../journals/open-journal";
import { SHARE_LINKS_PATH, shareLinkKeys } from "./get-share-links";

export async function createShareLink(
  body: CreateShareLinkBody,
  journalId?: string,
): Promise<CreatedShareLink> {
  return requestJson(
    "POST",
    withJournal(SHARE_LINKS_PATH, journalId),
    createdShareLinkSchema,
    body,
  );
}

/** Makes a link (and mails it when an address is given); the list follows. */
export function useCreateShareLink() {
  const queryClient = useQueryClient();
  const journalId = useJournalParam();
  return useMutation({
    mutationFn: (body: CreateShareLinkBody) => createShareLink(body, journalId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.all }),
  });
}
