import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import { type Journal, journalNameBodySchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { FormAlert } from "../../../components/ui/form-alert";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/use-toast";
import { useForm } from "../../../lib/use-form";
import { useRenameJournal } from "../api/update-journal";

/** An organizer renames the journal (the name everyone sees in the switcher and the mails). */
export function JournalNameForm({ journal }: { journal: Journal }) {
  const rename = useRenameJournal(journal.id);
  const form = useForm(journalNameBodySchema, { name: journal.name }, (data) =>
    rename.mutate(data, { onSuccess: () => toast({ title: JOURNAL_MESSAGES.journalRenamed }) }),
  );
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
      onSubmit={form.onSubmit}
      noValidate
    >
      <TextField
        label={JOURNAL_MESSAGES.renameJournal}
        autoComplete="off"
        {...form.field("name")}
      />
      <Button type="submit" size="lg" disabled={rename.isPending}>
        {JOURNAL_MESSAGES.renameSubmit}
      </Button>
      <div className="sm:col-span-2">
        <FormAlert title={JOURNAL_MESSAGES.renameFailed} error={rename.error} />
      </div>
    </form>
  );
}
