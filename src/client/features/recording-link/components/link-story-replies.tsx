import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "../../../../shared/dates";
import { formatMessage } from "../../../../shared/i18n/format";
import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import type { LinkStory } from "../../../../shared/schemas";
import { AudioPlayer } from "../../../components/audio-player";
import { Button } from "../../../components/ui/button";
import { errorMessage } from "../../../lib/api-client";
import {
  linkRepliesQueryOptions,
  markLinkRepliesSeen,
  recordingPageKeys,
} from "../api/recording-page";

/**
 * A story's replies on its storyteller's link page (ADR 0063): a "new replies" mark until they
 * are opened, then each reply to play. Opening them marks them heard.
 */
export function LinkStoryReplies({ token, story }: { token: string; story: LinkStory }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const replies = useQuery({ ...linkRepliesQueryOptions(token, story.id), enabled: open });
  const hear = () => {
    setOpen(true);
    if (story.newReplies === 0) return;
    void markLinkRepliesSeen(token, story.id).then(
      () => queryClient.invalidateQueries({ queryKey: recordingPageKeys.all }),
      // Not marked: the mark stays and opening again tries again.
      () => undefined,
    );
  };
  return (
    <div className="space-y-2">
      {story.newReplies > 0 ? (
        <p
          className="inline-block rounded-full bg-amber-100 px-3 py-1 text-base font-semibold text-amber-900"
          data-testid="link-new-replies"
        >
          {formatMessage(RECORDING_LINK_MESSAGES.newReplies, { count: story.newReplies })}
        </p>
      ) : null}
      {open ? (
        <section aria-label={RECORDING_LINK_MESSAGES.repliesTitle} className="space-y-3">
          {replies.isError ? (
            <p role="alert" className="text-lg text-red-800">
              {RECORDING_LINK_MESSAGES.repliesFailed}: {errorMessage(replies.error)}
            </p>
          ) : replies.data?.length === 0 ? (
            <p className="text-lg text-slate-700">{RECORDING_LINK_MESSAGES.noReplies}</p>
          ) : (
            <ul className="space-y-3">
              {(replies.data ?? []).map((reply) => {
                const label = formatMessage(RECORDING_LINK_MESSAGES.replyBy, {
                  name: reply.commenterName,
                });
                return (
                  <li key={reply.id} className="space-y-1">
                    <p className="text-lg font-medium text-slate-900">{label}</p>
                    <AudioPlayer
                      src={reply.audioUrl}
                      label={label}
                      caption={formatDate(reply.createdAt, "date")}
                    />
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ) : (
        <Button variant="secondary" size="lg" onClick={hear}>
          {RECORDING_LINK_MESSAGES.hearReplies}
        </Button>
      )}
    </div>
  );
}
