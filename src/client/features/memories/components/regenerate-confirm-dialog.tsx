import { MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";

/** Before Regenerate replaces the owner's title, summary and tags: what it does, and Undo after. */
export function RegenerateConfirmDialog({
  open,
  onOpenChange,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent>
          <div className="space-y-4">
            <DialogTitle>{MESSAGES.regenerateConfirmTitle}</DialogTitle>
            <DialogDescription>{MESSAGES.regenerateConfirmDescription}</DialogDescription>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="outline" className="min-h-11" onClick={() => onOpenChange(false)}>
                {MESSAGES.cancel}
              </Button>
              <Button className="min-h-11" onClick={onConfirm}>
                {MESSAGES.regenerateConfirm}
              </Button>
            </div>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
