import { useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { Input } from "../../../components/ui/input";
import { TypedDeleteDialog } from "../../../components/ui/typed-delete-dialog";

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
