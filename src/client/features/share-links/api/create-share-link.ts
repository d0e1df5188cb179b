import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedShareLink, CreateShareLinkBody } from "../../../../shared/share-links";
import { apiRequest } from "../../../lib/api-client";
import { SHARE_LINKS_PATH } from "./get-share-links";

export async function createShareLink(body: CreateShareLinkBody): Promise<CreatedShareLink> {
  const res = await apiRequest("POST", SHARE_LINKS_PATH, body);
  return (await res.json()) as CreatedShareLink;
}

/** Makes a link (and mails it when an address is given); the list follows. */
export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createShareLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SHARE_LINKS_PATH] }),
  });
}
