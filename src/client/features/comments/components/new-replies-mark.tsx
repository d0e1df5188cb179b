import { useEffect, useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import type { Memory } from "../../../../shared/schemas";
import { useJournals } from "../../journals/api/get-journals";
import { useMarkRepliesSeen, useNewReplies } from "../api/new-replies";

/** How many replies the reader has not heard, when the reader told this memory (else 0). */
function useUnheard(memory: Memory): number {
  const journals = useJournals();
  const mine = journals.data?.find((journal) => journal.id === memory.journalId);
  const told = !!memory.storyteller && mine?.memberId === memory.storyteller.id;
  const replies = useNewReplies(memory.journalId, told);
  return replies.data?.items.find((item) => item.memoryId === memory.id)?.count ?? 0;
}

/**
 * "2 new replies" beside a story, for the storyteller who told it (ADR 0063). On the story's own
 * page (`markSeen`), opening it marks its replies heard: the mark shows this once.
 */
export function NewRepliesMark({
  memory,
  markSeen = false,
}: {
  memory: Memory;
  markSeen?: boolean;
}) {
  const count = useUnheard(memory);
  const { mutate } = useMarkRepliesSeen();
  // What was new when the page opened stays said while it is open, though now heard.
  const [heard, setHeard] = useState(0);
  useEffect(() => {
    if (!markSeen || count === 0) return;
    setHeard(count);
    mutate(memory.id);
  }, [markSeen, count, memory.id, mutate]);
  const shown = count || heard;
  if (shown === 0) return null;
  return (
    <span
      className="inline-block rounded-full bg-amber-100 px-2 py-0.5 text-sm font-semibold text-amber-900"
      data-testid="new-replies"
    >
      {formatMessage(JOURNAL_MESSAGES.newReplies, { count: shown })}
    </span>
  );
}
