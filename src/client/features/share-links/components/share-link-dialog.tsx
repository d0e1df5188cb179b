import { Link } from "wouter";
import { SHARE_MESSAGES } from "../../../../shared/share-links";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { CreateShareLinkForm } from "./create-share-link-form";

/**
 * 'Share Profile' on a private profile (loaded when first opened): a public profile's address
 * would show nothing, so this offers a share link instead.
 */
export function ShareLinkDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <div className="space-y-4">
          <DialogTitle>{SHARE_MESSAGES.dialogTitle}</DialogTitle>
          <DialogDescription>{SHARE_MESSAGES.dialogDescription}</DialogDescription>
          <CreateShareLinkForm />
          <Link
            href="/account"
            onClick={onClose}
            className="inline-flex h-11 items-center text-sm font-medium text-brand-700 underline underline-offset-2"
          >
            {SHARE_MESSAGES.manageOnAccount}
          </Link>
        </div>
      </DialogContent>
    </Dialog>
  );
}
