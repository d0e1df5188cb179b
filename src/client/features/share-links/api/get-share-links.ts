import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ShareLink } from "../../../../shared/share-links";
import { getQueryFn } from "../../../lib/api-client";

export const SHARE_LINKS_PATH = "/api/share-links";

export const shareLinksQueryOptions = () =>
  queryOptions<ShareLink[]>({
    queryKey: [SHARE_LINKS_PATH],
    queryFn: getQueryFn({ on401: "throw" }),
  });

/** The logged-in user's share links, newest first. */
export function useShareLinks() {
  return useQuery(shareLinksQueryOptions());
}
