import { MESSAGES } from "../../../../shared/messages";
import { forgotPasswordFormSchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { FormAlert } from "../../../components/ui/form-alert";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/use-toast";
import { useForm } from "../../../lib/use-form";
import { useForgotPassword } from "../api/forgot-password";
import type { AccountDialogProps } from "./login-dialog";

export function ForgotPasswordDialog({ open, onOpenChange }: AccountDialogProps) {
  const forgot = useForgotPassword();
  const form = useForm(forgotPasswordFormSchema, { email: "" }, (data) => {
    forgot.mutate(data, {
      onSuccess: () => {
        toast({
          title: MESSAGES.passwordResetEmailSent,
          description: MESSAGES.passwordResetEmailSentDescription,
        });
        form.reset();
        onOpenChange(false);
      },
    });
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Opened again, the dialog starts without the last failure.
        if (!next) forgot.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>{MESSAGES.resetYourPassword}</DialogTitle>
        <DialogDescription>{MESSAGES.resetYourPasswordDescription}</DialogDescription>
        <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
          <FormAlert title={MESSAGES.passwordResetFailed} error={forgot.error} />
          <TextField
            label={MESSAGES.email}
            type="email"
            autoComplete="email"
            {...form.field("email")}
          />
          <Button type="submit" disabled={forgot.isPending}>
            {MESSAGES.sendResetLink}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
