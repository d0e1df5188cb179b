import { MESSAGES, removeCommentDescription } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";

/** Asks before a spoken comment is removed: its audio and transcript go for good. */
export function RemoveCommentDialog({
  commenterName,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  commenterName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <div className="space-y-4">
          <DialogTitle>{MESSAGES.removeCommentTitle}</DialogTitle>
          <DialogDescription>{removeCommentDescription(commenterName)}</DialogDescription>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {MESSAGES.cancel}
            </Button>
            <Button variant="destructive" disabled={pending} onClick={onConfirm}>
              {MESSAGES.remove}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
