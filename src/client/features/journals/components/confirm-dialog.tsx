import { MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { FormAlert } from "../../../components/ui/form-alert";

/**
 * Asks before someone leaves the journal (removed, or leaving): they can no longer open it. A
 * refusal (the last organizer) is said inside the dialog, in the catalogue's words.
 */
export function ConfirmMemberDialog({
  title,
  description,
  confirm,
  failure,
  error,
  pending,
  onConfirm,
  onOpenChange,
}: {
  title: string;
  description: string;
  confirm: string;
  /** The alert's title when the server refuses. */
  failure: string;
  error: unknown;
  pending: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <div className="space-y-4">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
          <FormAlert title={failure} error={error} />
          <div className="flex justify-end gap-2">
            <Button variant="outline" size="lg" onClick={() => onOpenChange(false)}>
              {MESSAGES.cancel}
            </Button>
            <Button variant="destructive" size="lg" disabled={pending} onClick={onConfirm}>
              {confirm}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
