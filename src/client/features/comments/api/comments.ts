import { useQuery } from "@tanstack/react-query";
import type { Comment } from "../../../../shared/schemas";

export function commentsPath(memoryId: string): string {
  return `/api/memories/${encodeURIComponent(memoryId)}/comments`;
}

/** A memory's comments, newest first; polls while any transcript is still being made. */
export function useComments(memoryId: string) {
  return useQuery<Comment[]>({
    queryKey: [commentsPath(memoryId)],
    refetchInterval: (query) =>
      query.state.data?.some((comment) => comment.status === "processing") ? 1500 : false,
  });
}
