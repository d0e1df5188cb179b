import { queryOptions, useQuery } from "@tanstack/react-query";
import { commentListSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";

export function commentsPath(memoryId: string): string {
  return `/api/memories/${encodeURIComponent(memoryId)}/comments`;
}

/** A spoken comment's captions (WebVTT), for its player's track; read as its audio is. */
export function commentCaptionsUrl(memoryId: string, commentId: string): string {
  return `${commentsPath(memoryId)}/${encodeURIComponent(commentId)}/captions.vtt`;
}

export const commentKeys = { list: (memoryId: string) => ["comments", memoryId] as const };

/** GET /api/memories/{id}/comments: newest first; polls while any transcript is being made. */
export const commentsQueryOptions = (memoryId: string) =>
  queryOptions({
    queryKey: commentKeys.list(memoryId),
    queryFn: () => getJson(commentsPath(memoryId), commentListSchema),
    refetchInterval: (query) =>
      query.state.data?.some((comment) => comment.status === "processing") ? 1500 : false,
  });

export function useComments(memoryId: string) {
  return useQuery(commentsQueryOptions(memoryId));
}
