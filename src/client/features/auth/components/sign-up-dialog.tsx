import { MESSAGES } from "../../../../shared/messages";
import { signUpFormSchema } from "../../../../shared/schemas";
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
import { useRegister } from "../api/register";
import type { AccountDialogProps } from "./login-dialog";

export function SignUpDialog({ open, onOpenChange }: AccountDialogProps) {
  const register = useRegister();
  const form = useForm(signUpFormSchema, { username: "", email: "", password: "" }, (data) => {
    register.mutate(
      { ...data, isPublic: true },
      {
        onSuccess: () => {
          toast({ title: MESSAGES.welcome });
          form.reset();
          onOpenChange(false);
        },
      },
    );
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Opened again, the dialog starts without the last failure.
        if (!next) register.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>{MESSAGES.signUp}</DialogTitle>
        <DialogDescription>Create an account to keep your memories.</DialogDescription>
        <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
          <FormAlert title={MESSAGES.registrationFailed} error={register.error} />
          <TextField label="Username" autoComplete="username" {...form.field("username")} />
          <TextField label="Email" type="email" autoComplete="email" {...form.field("email")} />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            {...form.field("password")}
          />
          <Button type="submit" disabled={register.isPending}>
            {MESSAGES.signUp}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
