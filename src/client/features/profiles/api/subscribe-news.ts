import { useMutation } from "@tanstack/react-query";
import type { RelativeNewsBody } from "../../../../shared/share-links";
import { apiRequest } from "../../../lib/api-client";

/** POST /api/relative-news: this browser's share link mails `email` news of new stories. */
export function useSubscribeNews() {
  return useMutation({
    mutationFn: async (body: RelativeNewsBody) => {
      await apiRequest("POST", "/api/relative-news", body);
    },
  });
}
