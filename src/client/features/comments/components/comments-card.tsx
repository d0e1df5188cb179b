import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { COMMENTER_NAME_MAX_LENGTH } from "../../../../shared/constants";
import { commentCountLabel, MESSAGES } from "../../../../shared/messages";
import { Card } from "../../../components/ui/card";
import { toast } from "../../../components/ui/use-toast";
import { useUser } from "../../auth/api/get-user";
import { Recorder } from "../../recorder/components/recorder";
import { commentKeys, useComments } from "../api/comments";
import { CommentItem } from "./comment-item";

/** Where this device keeps the name a relative answered under, so they type it once. */
export const COMMENTER_NAME_KEY = "vmj.commenterName";

function rememberedName(): string | null {
  try {
    return localStorage.getItem(COMMENTER_NAME_KEY);
  } catch {
    return null; // Storage refused (private mode, blocked): the name is typed each time.
  }
}

function rememberName(name: string): void {
  try {
    localStorage.setItem(COMMENTER_NAME_KEY, name);
  } catch {
    // Not kept: asked again next time.
  }
}

/** The memory page's Comments card: count, a spoken-comment recorder and the list. */
export function CommentsCard({ memoryId, isOwner }: { memoryId: string; isOwner: boolean }) {
  const queryClient = useQueryClient();
  const { data: comments, isError } = useComments(memoryId);
  const { data: user } = useUser();
  // The owner answers under their own name (still editable); a relative types theirs once: the
  // device remembers it for every later answer.
  const [typed, setName] = useState<string | null>(() => (isOwner ? null : rememberedName()));
  const name = typed ?? (isOwner && user ? user.displayName || user.username : "");
  const nameId = useId();
  const count = comments?.length ?? 0;

  return (
    <Card className="space-y-4" data-testid="comments-card">
      <h2 className="text-lg font-semibold">{commentCountLabel(count)}</h2>
      <div className="space-y-2">
        <label htmlFor={nameId} className="block text-sm font-medium">
          {MESSAGES.yourName}
        </label>
        <input
          id={nameId}
          value={name}
          maxLength={COMMENTER_NAME_MAX_LENGTH}
          onChange={(event) => setName(event.target.value)}
          className="w-full rounded-md border border-slate-300 px-3 py-2"
          autoComplete="name"
        />
        <Recorder
          kind="comment"
          variant="compact"
          startLabel={MESSAGES.answerWithVoice}
          meta={{ memoryId, commenterName: name.trim() }}
          beforeStart={() => {
            if (name.trim()) {
              if (!isOwner) rememberName(name.trim());
              return true;
            }
            toast({
              title: MESSAGES.nameRequired,
              description: MESSAGES.nameRequiredDescription,
              variant: "destructive",
            });
            return false;
          }}
          onSaved={() => {
            void queryClient.invalidateQueries({ queryKey: commentKeys.list(memoryId) });
          }}
        />
      </div>
      {isError ? <p className="text-sm text-red-700">{MESSAGES.failedFetchComments}</p> : null}
      <ul className="space-y-3">
        {comments?.map((comment) => (
          <CommentItem key={comment.id} comment={comment} canRemove={isOwner} />
        ))}
      </ul>
    </Card>
  );
}
