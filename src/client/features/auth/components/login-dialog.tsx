import { MESSAGES } from "../../../../shared/messages";
import { loginFormSchema } from "../../../../shared/schemas";
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
import { useLogin } from "../api/login";

export interface AccountDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function LoginDialog({
  open,
  onOpenChange,
  onForgotPassword,
}: AccountDialogProps & {
  /** Offers 'Forgot your password?' in the dialog (the top bar has no room for it on phones). */
  onForgotPassword?: () => void;
}) {
  const login = useLogin();
  const form = useForm(loginFormSchema, { username: "", password: "" }, (data) => {
    login.mutate(data, {
      onSuccess: () => {
        toast({ title: MESSAGES.welcomeBack });
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
        if (!next) login.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>{MESSAGES.logIn}</DialogTitle>
        <DialogDescription>{MESSAGES.logInDescription}</DialogDescription>
        <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
          <FormAlert title={MESSAGES.loginFailed} error={login.error} />
          <TextField
            label={MESSAGES.username}
            autoComplete="username"
            {...form.field("username")}
          />
          <TextField
            label={MESSAGES.password}
            type="password"
            autoComplete="current-password"
            {...form.field("password")}
          />
          <Button type="submit" disabled={login.isPending}>
            {MESSAGES.logIn}
          </Button>
          {onForgotPassword ? (
            <button
              type="button"
              className="h-11 text-sm text-brand-700 underline underline-offset-2 hover:text-brand-800"
              onClick={onForgotPassword}
            >
              {MESSAGES.forgotPassword}
            </button>
          ) : null}
        </form>
      </DialogContent>
    </Dialog>
  );
}
