import { MESSAGES } from "../../../../shared/messages";
import { forgotPasswordFormSchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { useForgotPassword } from "../api/forgot-password";
import type { AccountDialogProps } from "./login-dialog";
import { useForm } from "./use-form";

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
      onError: (error) => {
        toast({
          title: MESSAGES.passwordResetFailed,
          description: errorMessage(error),
          variant: "destructive",
        });
      },
    });
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Reset your password</DialogTitle>
        <DialogDescription>We will email you a link to choose a new password.</DialogDescription>
        <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
          <TextField label="Email" type="email" autoComplete="email" {...form.field("email")} />
          <Button type="submit" disabled={forgot.isPending}>
            Send reset link
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
