import { queryOptions, useQuery } from "@tanstack/react-query";
import { shareLinkListSchema } from "../../../../shared/share-links";
import { getJson } from "../../../lib/api-client";
import { useJournalParam, withJournal } from "../../journals/open-journal";

export const SHARE_LINKS_PATH = "/api/share-links";

export const shareLinkKeys = {
  all: ["share-links"] as const,
  of: (journalId: string | undefined) => ["share-links", journalId ?? "own"] as const,
};

/** GET /api/share-links: the open journal's share links (the user's own by default), newest first. */
export const shareLinksQueryOptions = (journalId?: string) =>
  queryOptions({
    queryKey: shareLinkKeys.of(journalId),
    // Read again whenever the Account page shows it: a memory book may have added its link.
    refetchOnMount: "always",
    queryFn: () => getJson(withJournal(SHARE_LINKS_PATH, journalId), shareLinkListSchema),
  });

export function useShareLinks() {
  return useQuery(shareLinksQueryOptions(useJournalParam()));
}
