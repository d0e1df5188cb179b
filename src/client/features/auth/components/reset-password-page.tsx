import { Link, useLocation, useSearch } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import { resetPasswordFormSchema } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useForm } from "../../../lib/use-form";
import { useResetPassword } from "../api/reset-password";

export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get("token");
  useDocumentTitle(token ? MESSAGES.resetPasswordTitle : MESSAGES.invalidResetLink);
  if (!token) {
    return (
      <Card className="mx-auto max-w-md space-y-4 text-center">
        <h1 className="text-xl font-bold">{MESSAGES.invalidResetLink}</h1>
        <Link href="/" className="inline-block rounded-md bg-brand-700 px-4 py-2 text-white">
          {MESSAGES.returnToHome}
        </Link>
      </Card>
    );
  }
  return <ResetPasswordForm token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const reset = useResetPassword();
  const form = useForm(resetPasswordFormSchema, { password: "", confirmPassword: "" }, (data) => {
    reset.mutate(
      { token, password: data.password },
      {
        onSuccess: () => {
          toast({ title: MESSAGES.passwordResetSuccessful });
          navigate("/");
        },
        onError: (error) => {
          toast({
            title: MESSAGES.passwordResetFailed,
            description: errorMessage(error),
            variant: "destructive",
          });
        },
      },
    );
  });
  return (
    <Card className="mx-auto max-w-md">
      <h1 className="text-xl font-bold">{MESSAGES.resetPasswordTitle}</h1>
      <form className="mt-4 grid gap-4" onSubmit={form.onSubmit} noValidate>
        <TextField
          label={MESSAGES.newPassword}
          type="password"
          autoComplete="new-password"
          {...form.field("password")}
        />
        <TextField
          label={MESSAGES.confirmPassword}
          type="password"
          autoComplete="new-password"
          {...form.field("confirmPassword")}
        />
        <Button type="submit" disabled={reset.isPending}>
          {MESSAGES.resetPasswordButton}
        </Button>
      </form>
    </Card>
  );
}
