import { Link, useSearch } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import { Card } from "../../../components/ui/card";

export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get("token");
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
  return (
    <Card className="mx-auto max-w-md">
      <h1 className="text-xl font-bold">Reset password</h1>
    </Card>
  );
}
