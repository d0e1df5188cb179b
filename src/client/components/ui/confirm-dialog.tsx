import type { ReactNode } from "react";
import { MESSAGES } from "../../../shared/messages";
import { Button } from "./button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./dialog";

/** Asks before an action: what it does, Cancel, and the action (red when `destructive`). */
export function ConfirmDialog({
  title,
  description,
  action,
  onOpenChange,
  onConfirm,
  pending = false,
  destructive = false,
  alert = false,
  children,
}: {
  title: string;
  description: ReactNode;
  action: string;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending?: boolean;
  destructive?: boolean;
  /** An alertdialog: what it does cannot be undone. */
  alert?: boolean;
  /** Said above the buttons (a refusal from the server, for one). */
  children?: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent {...(alert ? { role: "alertdialog" } : {})}>
        <div className="space-y-4">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
          {children}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" className="min-h-11" onClick={() => onOpenChange(false)}>
              {MESSAGES.cancel}
            </Button>
            <Button
              variant={destructive ? "destructive" : "primary"}
              className="min-h-11"
              disabled={pending}
              onClick={onConfirm}
            >
              {action}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
