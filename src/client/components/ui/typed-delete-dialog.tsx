import { type FormEvent, type ReactNode, useState } from "react";
import { DELETE_CONFIRMATION_WORD } from "../../../shared/constants";
import { formatMessage } from "../../../shared/i18n/format";
import { MESSAGES } from "../../../shared/messages";
import { isDeleteConfirmed } from "../../../shared/rules";
import { Button } from "./button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./dialog";
import { Input } from "./input";
import { toast } from "./use-toast";

/**
 * A deletion confirmed by typing the word (spec 4): the action is enabled once the typed text is
 * 'delete' in any case; Enter with anything else explains with 'Invalid confirmation'. Used for a
 * memory and for the whole account.
 */
export function TypedDeleteDialog({
  open,
  onOpenChange,
  onConfirm,
  pending,
  title,
  description,
  action,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (typed: string) => void;
  pending: boolean;
  title: string;
  /** What goes; the dialog adds 'Type "delete" to confirm.' */
  description: ReactNode;
  action: string;
  /** More fields under the confirmation (the account's current password). */
  children?: ReactNode;
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
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {description}{" "}
              {formatMessage(MESSAGES.typeToConfirm, { word: DELETE_CONFIRMATION_WORD })}
            </DialogDescription>
            <Input
              aria-label={MESSAGES.confirmation}
              autoComplete="off"
              value={typed}
              placeholder={DELETE_CONFIRMATION_WORD}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={(event) => {
                // A disabled submit button blocks implicit submission; Enter must still explain.
                if (event.key === "Enter") onSubmit(event);
              }}
            />
            {children}
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                {MESSAGES.cancel}
              </Button>
              <Button type="submit" variant="destructive" disabled={!confirmed || pending}>
                {action}
              </Button>
            </div>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
