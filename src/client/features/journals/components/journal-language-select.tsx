import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from "../../../../shared/i18n/languages";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import type { Journal } from "../../../../shared/schemas";
import { SelectField } from "../../../components/ui/select-field";
import { toast, toastError } from "../../../components/ui/use-toast";
import { useRenameJournal } from "../api/update-journal";

/**
 * An organizer chooses the journal's language: its book, backup page, questions and storytellers'
 * link pages speak it (each language named in itself). Saved as soon as it is chosen.
 */
export function JournalLanguageSelect({ journal }: { journal: Journal }) {
  const update = useRenameJournal(journal.id);
  return (
    <SelectField
      label={JOURNAL_MESSAGES.journalLanguage}
      hint={JOURNAL_MESSAGES.journalLanguageHint}
      value={update.variables?.language ?? journal.language}
      disabled={update.isPending}
      onChange={(value) => {
        if (!isLanguage(value) || value === journal.language) return;
        update.mutate(
          { language: value },
          {
            onSuccess: () => toast({ title: JOURNAL_MESSAGES.journalLanguageSaved }),
            onError: (error) => toastError(JOURNAL_MESSAGES.journalLanguageFailed, error),
          },
        );
      }}
    >
      {LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </SelectField>
  );
}
