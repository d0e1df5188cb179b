import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import type { Memory } from "../../../../shared/schemas";
import { useJournals } from "../../journals/api/get-journals";

/** "Told by NAME", when the memory names its storyteller. */
export function ToldBy({ memory }: { memory: Memory }) {
  if (!memory.storyteller) return null;
  return (
    <span className="block text-sm text-slate-700">
      {formatMessage(JOURNAL_MESSAGES.toldBy, { name: memory.storyteller.name })}
    </span>
  );
}

/**
 * Whether a memory's own page says who told it: to everyone but its storyteller (who knows), so a
 * person alone sees their page as before. Not while the reader's journals are still being read,
 * so the line never appears and then goes.
 */
export function useShowsStoryteller(memory: Memory | undefined): boolean {
  const journals = useJournals();
  if (!memory?.storyteller || journals.isLoading) return false;
  const mine = journals.data?.find((journal) => journal.id === memory.journalId);
  return mine?.memberId !== memory.storyteller.id;
}
