import { MESSAGES } from "../../../../shared/messages";
import { TypedDeleteDialog } from "../../../components/ui/typed-delete-dialog";

/** Deleting the account, confirmed like deleting a memory (typed 'delete', any case). */
export function DeleteAccountDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (typed: string) => void;
  pending: boolean;
}) {
  return (
    <TypedDeleteDialog
      {...props}
      title={MESSAGES.deleteAccountTitle}
      description="Your account and everything in it are deleted for good: every memory, the comments on them and all the recordings."
      action={MESSAGES.deleteAccount}
    />
  );
}
