import { useId, useState } from "react";
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

/** Sign up from the top bar: the profile starts private unless the person chooses public. */
export function SignUpDialog({ open, onOpenChange }: AccountDialogProps) {
  const register = useRegister();
  const publicId = useId();
  const [isPublic, setIsPublic] = useState(false);
  const form = useForm(signUpFormSchema, { username: "", email: "", password: "" }, (data) => {
    register.mutate(
      { ...data, isPublic },
      {
        onSuccess: () => {
          toast({ title: MESSAGES.welcome });
          form.reset();
          setIsPublic(false);
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
        <DialogDescription>{MESSAGES.signUpDescription}</DialogDescription>
        <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
          <FormAlert title={MESSAGES.registrationFailed} error={register.error} />
          <TextField
            label={MESSAGES.username}
            autoComplete="username"
            {...form.field("username")}
          />
          <TextField
            label={MESSAGES.email}
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
          <div className="grid gap-1">
            <div className="flex min-h-11 items-center gap-3">
              <input
                id={publicId}
                type="checkbox"
                className="h-5 w-5 accent-brand-700"
                checked={isPublic}
                aria-describedby={`${publicId}-hint`}
                onChange={(event) => setIsPublic(event.target.checked)}
              />
              <label htmlFor={publicId} className="text-sm font-medium text-slate-900">
                {MESSAGES.signUpPublicChoice}
              </label>
            </div>
            <p id={`${publicId}-hint`} className="text-sm text-slate-700">
              {MESSAGES.signUpPublicHint}
            </p>
          </div>
          <Button type="submit" disabled={register.isPending}>
            {MESSAGES.signUp}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
