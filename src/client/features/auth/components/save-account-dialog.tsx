import { MESSAGES } from "../../../../shared/messages";
import { saveAccountFormSchema, type User } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { FormAlert } from "../../../components/ui/form-alert";
import { TextField } from "../../../components/ui/text-field";
import { useForm } from "../../../lib/use-form";
import { useRegister } from "../api/register";

export interface SaveAccountDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the new (logged-in) user; the caller claims the memory and shows 'Account saved!'. */
  onRegistered: (user: User) => void;
}

/**
 * Offered after an anonymous recording: username and password required, email optional.
 * The account starts private (spec 3: isPublic false from the save dialog).
 */
export function SaveAccountDialog({ open, onOpenChange, onRegistered }: SaveAccountDialogProps) {
  const register = useRegister();
  const form = useForm(saveAccountFormSchema, { username: "", email: "", password: "" }, (data) => {
    register.mutate(
      { ...data, isPublic: false },
      {
        onSuccess: (user) => {
          form.reset();
          onRegistered(user);
        },
      },
    );
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>{MESSAGES.saveYourMemory}</DialogTitle>
        <DialogDescription>{MESSAGES.saveYourMemoryDescription}</DialogDescription>
        <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
          <FormAlert title={MESSAGES.failedSaveAccount} error={register.error} />
          <TextField
            label={MESSAGES.username}
            autoComplete="username"
            {...form.field("username")}
          />
          <TextField
            label={MESSAGES.emailOptional}
            type="email"
            autoComplete="email"
            {...form.field("email")}
          />
          <TextField
            label={MESSAGES.password}
            type="password"
            autoComplete="new-password"
            {...form.field("password")}
          />
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">{MESSAGES.cancel}</Button>
            </DialogClose>
            <Button type="submit" disabled={register.isPending}>
              {MESSAGES.saveAccount}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
