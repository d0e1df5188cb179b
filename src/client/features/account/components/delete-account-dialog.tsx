import { useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { currentLanguage, intlLocale } from "../../../../shared/i18n/languages";
import { JOURNAL_MESSAGES, ownJournalId } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import { Input } from "../../../components/ui/input";
import { TypedDeleteDialog } from "../../../components/ui/typed-delete-dialog";
import { useUser } from "../../auth/api/get-user";
import { useJournals } from "../../journals/api/get-journals";
import { useMembers } from "../../journals/api/get-members";

/**
 * Names the journals others belong to, their own among them once they invited anyone: the stories
 * the person told there go with the account (the journals stay), and the family should hear that
 * before it happens.
 */
function FamilyStoriesWarning() {
  const { data: user } = useUser();
  const { data: journals } = useJournals();
  const own = user ? ownJournalId(user.id) : undefined;
  const { data: ownMembers } = useMembers(own);
  const shared = (ownMembers?.length ?? 0) > 1;
  const names = (journals ?? [])
    .filter((journal) => journal.id !== own || shared)
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
