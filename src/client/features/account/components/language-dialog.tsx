import { MESSAGES } from "../../../../shared/messages";
import { Dialog, DialogContent, DialogTitle } from "../../../components/ui/dialog";
import { LanguagePicker } from "./language-picker";

/** The user menu's Language: the switcher in a dialog of its own. */
export function LanguageDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent aria-describedby={undefined}>
        <DialogTitle>{MESSAGES.language}</DialogTitle>
        <div className="mt-4">
          <LanguagePicker hideLabel />
        </div>
      </DialogContent>
    </Dialog>
  );
}
