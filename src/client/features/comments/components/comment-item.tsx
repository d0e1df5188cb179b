import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import {
  commentPlayerLabel,
  MESSAGES,
  messageFor,
  removeCommentDescription,
  removeCommentLabel,
} from "../../../../shared/messages";
import type { Comment } from "../../../../shared/schemas";
import { AudioPlayer } from "../../../components/audio-player";
import { Button } from "../../../components/ui/button";
import { toast, toastError } from "../../../components/ui/use-toast";
import { apiRequest } from "../../../lib/api-client";
import { formatRecordedAt } from "../../../lib/format-date";
import { commentCaptionsUrl, commentKeys, commentsPath } from "../api/comments";

// The Radix dialog stack (about 14 kB) is fetched when the owner asks to remove a comment, not with
// the memory page every visitor of a shared link opens.
const ConfirmDialog = lazy(() =>
  import("../../../components/ui/confirm-dialog").then((m) => ({ default: m.ConfirmDialog })),
);

export function CommentItem({ comment, canRemove }: { comment: Comment; canRemove: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      apiRequest("DELETE", `${commentsPath(comment.memoryId)}/${encodeURIComponent(comment.id)}`),
    onSuccess: () => {
      setConfirming(false);
      toast({ title: MESSAGES.commentRemoved });
      void queryClient.invalidateQueries({ queryKey: commentKeys.list(comment.memoryId) });
    },
    onError: (error) => toastError(MESSAGES.failedRemoveComment, error),
  });

  return (
    <li className="space-y-2 rounded-lg border border-slate-200 p-3" data-testid="comment">
      <div className="flex items-center justify-between gap-2">
        <p className="font-medium">{comment.commenterName}</p>
        {canRemove ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label={removeCommentLabel(comment.commenterName)}
            disabled={remove.isPending}
            onClick={() => setConfirming(true)}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      <AudioPlayer
        src={comment.audioUrl}
        caption={formatRecordedAt(comment.createdAt)}
        label={commentPlayerLabel(comment.commenterName)}
        // Once transcribed, its timed sentences are its captions (none for older comments).
        captions={
          comment.status === "saved" && comment.transcript
            ? { src: commentCaptionsUrl(comment.memoryId, comment.id), language: null }
            : undefined
        }
      />
      {comment.status === "processing" ? (
        <p className="text-sm text-slate-600">{MESSAGES.transcribing}</p>
      ) : comment.status === "failed" ? (
        <p className="text-sm text-red-700">
          {formatMessage(MESSAGES.transcriptUnavailable, {
            reason: messageFor(comment.error, "processing.failed"),
          })}
        </p>
      ) : (
        <p className="text-sm" dir="auto">
          {comment.transcript}
        </p>
      )}
      {canRemove && confirming ? (
        // Asks first: a spoken comment cannot be recorded again by its visitor.
        <Suspense fallback={null}>
          <ConfirmDialog
            title={MESSAGES.removeCommentTitle}
            description={removeCommentDescription(comment.commenterName)}
            action={MESSAGES.remove}
            onOpenChange={setConfirming}
            onConfirm={() => remove.mutate()}
            pending={remove.isPending}
            destructive
            alert
          />
        </Suspense>
      ) : null}
    </li>
  );
}
