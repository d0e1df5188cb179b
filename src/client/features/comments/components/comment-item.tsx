import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { MESSAGES } from "../../../../shared/messages";
import type { Comment } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { apiRequest, errorMessage } from "../../../lib/api-client";
import { AudioPlayer } from "../../memories/components/audio-player";
import { commentsPath } from "../api/comments";

export function CommentItem({ comment, canRemove }: { comment: Comment; canRemove: boolean }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      apiRequest("DELETE", `${commentsPath(comment.memoryId)}/${encodeURIComponent(comment.id)}`),
    onSuccess: () => {
      toast({ title: MESSAGES.commentRemoved });
      void queryClient.invalidateQueries({ queryKey: [commentsPath(comment.memoryId)] });
    },
    onError: (error) =>
      toast({
        title: MESSAGES.failedRemoveComment,
        description: errorMessage(error),
        variant: "destructive",
      }),
  });

  return (
    <li className="space-y-2 rounded-lg border border-slate-200 p-3" data-testid="comment">
      <div className="flex items-center justify-between gap-2">
        <p className="font-medium">{comment.commenterName}</p>
        {canRemove ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove comment by ${comment.commenterName}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      <AudioPlayer src={comment.audioUrl} caption={new Date(comment.createdAt).toLocaleString()} />
      {comment.status === "processing" ? (
        <p className="text-sm text-slate-600">{MESSAGES.transcribing}</p>
      ) : comment.status === "failed" ? (
        <p className="text-sm text-red-700">Transcript unavailable: {comment.error}</p>
      ) : (
        <p className="text-sm">{comment.transcript}</p>
      )}
    </li>
  );
}
