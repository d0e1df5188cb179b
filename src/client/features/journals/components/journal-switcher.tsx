import { useLocation } from "wouter";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import { SelectField } from "../../../components/ui/select-field";
import { useOpenJournal } from "../open-journal";

/**
 * The open journal's name, and in one step another of the user's journals. Nothing for a person
 * with one journal: the top bar stays as it was.
 */
export function JournalSwitcher() {
  const { journal, journals, open } = useOpenJournal();
  const [location, navigate] = useLocation();
  if (!journal || journals.length < 2) return null;
  const choose = (journalId: string) => {
    open(journalId);
    // A page, search or storyteller of the journal left behind means nothing in the next one.
    navigate(location, { replace: true });
  };
  return (
    <SelectField
      label={JOURNAL_MESSAGES.switchJournal}
      hideLabel
      value={journal.id}
      onChange={choose}
      // Narrow on a phone: the top bar keeps one row (the title wraps, the controls never do).
      className="max-w-28 truncate sm:max-w-56"
    >
      {journals.map((candidate) => (
        <option key={candidate.id} value={candidate.id}>
          {candidate.name}
        </option>
      ))}
    </SelectField>
  );
}
