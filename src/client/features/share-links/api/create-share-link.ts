import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type CreatedShareLink,
  type CreateShareLinkBody,
  createdShareLinkSchema,
} from "../../../../shared/share-links";
import { requestJson } from "../../../lib/api-client";
import { SHARE_LINKS_PATH, shareLinkKeys } from "./get-share-links";

export async function createShareLink(body: CreateShareLinkBody): Promise<CreatedShareLink> {
  return requestJson("POST", SHARE_LINKS_PATH, createdShareLinkSchema, body);
}

/** Makes a link (and mails it when an address is given); the list follows. */
export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createShareLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareLinkKeys.all }),
  });
}
