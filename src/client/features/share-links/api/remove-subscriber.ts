import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { SHARE_LINKS_PATH, shareLinkKeys } from "./get-share-links";

/** Stops the news mails of one address on the owner's link (ADR 0044); the list follows. */
export function useRemoveSubscriber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ linkId, subscriberId }: { linkId: string; subscriberId: string }) => {
      await apiRequest(
        "DELETE",
        `${SHARE_LINKS_PATH}/${encodeURIComponent(linkId)}/subscribers/${encodeURIComponent(subscriberId)}`,
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.all }),
  });
}
