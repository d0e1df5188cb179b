import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { useJournalParam, withJournal } from "../../journals/open-journal";
import { SHARE_LINKS_PATH, shareLinkKeys } from "./get-share-links";

/** Revokes a link: whoever opened it loses access at once. */
export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  const journalId = useJournalParam();
  return useMutation({
    mutationFn: async (id: string) => {
      const path = `${SHARE_LINKS_PATH}/${encodeURIComponent(id)}`;
      await apiRequest("DELETE", withJournal(path, journalId));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.all }),
  });
}
