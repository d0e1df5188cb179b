import { type FormEvent, useState } from "react";
import { DELETE_CONFIRMATION_WORD } from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import { isDeleteConfirmed } from "../../../../shared/rules";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Input } from "../../../components/ui/input";
import { toast } from "../../../components/ui/use-toast";

/** The delete confirmation: the action is enabled once the typed text is 'delete' in any case. */
export function DeleteMemoryDialog({
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  const [typed, setTyped] = useState("");
  const confirmed = isDeleteConfirmed(typed);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) {
      toast({
        title: MESSAGES.invalidConfirmation,
        description: MESSAGES.invalidConfirmationDescription,
        variant: "destructive",
      });
      return;
    }
    onConfirm();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped("");
        onOpenChange(next);
      }}
    >
      {open ? (
        <DialogContent>
          <form onSubmit={onSubmit} className="space-y-4">
            <DialogTitle>Delete this memory?</DialogTitle>
            <DialogDescription>
              This removes the memory, its audio and its comments for good. Type "
              {DELETE_CONFIRMATION_WORD}" to confirm.
            </DialogDescription>
            <Input
              aria-label="Confirmation"
              autoComplete="off"
              value={typed}
              placeholder={DELETE_CONFIRMATION_WORD}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={(event) => {
                // A disabled submit button blocks implicit submission; Enter must still explain.
                if (event.key === "Enter") onSubmit(event);
              }}
            />
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                {MESSAGES.cancel}
              </Button>
              <Button type="submit" variant="destructive" disabled={!confirmed || pending}>
                Delete
              </Button>
            </div>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
