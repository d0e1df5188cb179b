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

/**
 * Deleting the account, confirmed like deleting a memory (spec 4): the action is enabled once the
 * typed text is 'delete' in any case; Enter with anything else explains with 'Invalid confirmation'.
 */
export function DeleteAccountDialog({
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (typed: string) => void;
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
    onConfirm(typed);
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
            <DialogTitle>{MESSAGES.deleteAccountTitle}</DialogTitle>
            <DialogDescription>
              Your account and everything in it are deleted for good: every memory, the comments on
              them and all the recordings. Type "{DELETE_CONFIRMATION_WORD}" to confirm.
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
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                {MESSAGES.cancel}
              </Button>
              <Button type="submit" variant="destructive" disabled={!confirmed || pending}>
                {MESSAGES.deleteAccount}
              </Button>
            </div>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
