import { useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { currentLanguage, intlLocale } from "../../../../shared/i18n/languages";
import { JOURNAL_MESSAGES, ownJournalId } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import { Input } from "../../../components/ui/input";
import { TypedDeleteDialog } from "../../../components/ui/typed-delete-dialog";
import { useUser } from "../../auth/api/get-user";
import { useJournals } from "../../journals/api/get-journals";

/**
 * Names the family journals, other than their own, the person belongs to: the stories they told
 * there go with the account, and the family should hear that before it happens.
 */
function FamilyStoriesWarning() {
  const { data: user } = useUser();
  const { data: journals } = useJournals();
  const names = (journals ?? [])
    .filter((journal) => user && journal.id !== ownJournalId(user.id))
    .map((journal) => journal.name);
  if (names.length === 0) return null;
  const list = new Intl.ListFormat(intlLocale(currentLanguage()), { type: "conjunction" });
  return (
    <p className="text-sm font-medium text-red-800" data-testid="delete-account-stories">
      {formatMessage(JOURNAL_MESSAGES.deleteAccountStories, { journals: list.format(names) })}
    </p>
  );
}

/**
 * Deleting the account, confirmed like deleting a memory (typed 'delete', any case) and with the
 * current password, so a stolen session alone cannot delete it.
 */
export function DeleteAccountDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (typed: string, currentPassword: string) => void;
  pending: boolean;
}) {
  const [password, setPassword] = useState("");
  return (
    <TypedDeleteDialog
      {...props}
      onOpenChange={(open) => {
        if (!open) setPassword("");
        props.onOpenChange(open);
      }}
      onConfirm={(typed) => props.onConfirm(typed, password)}
      title={MESSAGES.deleteAccountTitle}
      description={MESSAGES.deleteAccountDescription}
      action={MESSAGES.deleteAccount}
    >
      <FamilyStoriesWarning />
      <Input
        aria-label={MESSAGES.currentPassword}
        type="password"
        autoComplete="current-password"
        placeholder={MESSAGES.currentPassword}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
    </TypedDeleteDialog>
  );
}
