import { queryOptions, useQuery } from "@tanstack/react-query";
import { shareLinkListSchema } from "../../../../shared/share-links";
import { getJson } from "../../../lib/api-client";

export const SHARE_LINKS_PATH = "/api/share-links";

export const shareLinkKeys = { all: ["share-links"] as const };

/** GET /api/share-links: the logged-in user's share links, newest first. */
export const shareLinksQueryOptions = () =>
  queryOptions({
    queryKey: shareLinkKeys.all,
    // Read again whenever the Account page shows it: a memory book may have added its link.
    refetchOnMount: "always",
    queryFn: () => getJson(SHARE_LINKS_PATH, shareLinkListSchema),
  });

export function useShareLinks() {
  return useQuery(shareLinksQueryOptions());
}
