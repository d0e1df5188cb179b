import { useId, useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import {
  currentLanguage,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
} from "../../../../shared/i18n/languages";
import { JOURNAL_MESSAGES, type JournalRole, ROLE_DESCRIPTIONS } from "../../../../shared/journals";
import { memberCreateBodySchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { FormAlert } from "../../../components/ui/form-alert";
import { SelectField } from "../../../components/ui/select-field";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/use-toast";
import { useForm } from "../../../lib/use-form";
import { useAddMember } from "../api/add-member";
import { RoleSelect } from "./role-select";

/**
 * An organizer adds a member: a name, a role, the language their invitation and mails are written
 * in (this page's at first), and an email to mail the invitation to.
 */
export function AddMemberForm({ journalId }: { journalId: string }) {
  const add = useAddMember(journalId);
  const emailHint = useId();
  // The role is chosen from a list: always valid, so it lives beside the checked text fields.
  const [role, setRole] = useState<JournalRole>("storyteller");
  const [language, setLanguage] = useState<Language>(currentLanguage);
  const form = useForm(
    memberCreateBodySchema.omit({ role: true }),
    { name: "", email: "" },
    (data) =>
      add.mutate(
        { name: data.name, role, language, ...(data.email ? { email: data.email } : {}) },
        {
          onSuccess: (member) => {
            form.reset();
            toast({
              title: member.invitationPending
                ? formatMessage(JOURNAL_MESSAGES.invitationMailed, { name: member.name })
                : formatMessage(JOURNAL_MESSAGES.memberAdded, { name: member.name }),
            });
          },
        },
      ),
  );
  return (
    <section aria-labelledby="add-member" className="space-y-3">
      <h2 id="add-member" className="text-lg font-semibold text-slate-900">
        {JOURNAL_MESSAGES.inviteTitle}
      </h2>
      <form className="grid gap-4" onSubmit={form.onSubmit} noValidate>
        <TextField label={JOURNAL_MESSAGES.inviteName} autoComplete="off" {...form.field("name")} />
        <RoleSelect
          label={JOURNAL_MESSAGES.inviteRole}
          value={role}
          onChange={setRole}
          hint={ROLE_DESCRIPTIONS[role]}
        />
        <SelectField
          label={JOURNAL_MESSAGES.inviteLanguage}
          value={language}
          onChange={(next) => setLanguage(next as Language)}
          hint={JOURNAL_MESSAGES.inviteLanguageHint}
        >
          {LANGUAGES.map((choice) => (
            <option key={choice} value={choice} lang={choice}>
              {LANGUAGE_NAMES[choice]}
            </option>
          ))}
        </SelectField>
        <div className="grid gap-1">
          <TextField
            label={JOURNAL_MESSAGES.inviteEmail}
            type="email"
            autoComplete="off"
            {...form.field("email")}
            // Its error, when it has one, is what to read first.
            aria-describedby={form.errors.email ? undefined : emailHint}
          />
          <p id={emailHint} className="text-sm text-slate-700">
            {JOURNAL_MESSAGES.inviteEmailHint}
          </p>
        </div>
        <FormAlert title={JOURNAL_MESSAGES.addMemberFailed} error={add.error} />
        <div>
          <Button type="submit" size="lg" disabled={add.isPending}>
            {JOURNAL_MESSAGES.inviteSubmit}
          </Button>
        </div>
      </form>
    </section>
  );
}
