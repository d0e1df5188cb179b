import { lazy, Suspense, useState } from "react";
import { JOURNAL_MESSAGES } from "../../../shared/journals";
import { JoinInvitation } from "../../features/journals/components/join-invitation";
import { useDocumentTitle } from "../../lib/use-document-title";

const LoginDialog = lazy(() =>
  import("../../features/auth/components/login-dialog").then((m) => ({ default: m.LoginDialog })),
);
const SignUpDialog = lazy(() =>
  import("../../features/auth/components/sign-up-dialog").then((m) => ({
    default: m.SignUpDialog,
  })),
);

/** /join/{token}: an invitation to a family journal; logging in or signing up stays here. */
export function JoinPage({ token }: { token: string }) {
  useDocumentTitle(JOURNAL_MESSAGES.joinTitle);
  const [open, setOpen] = useState<"login" | "signup" | null>(null);
  const openChange = (which: typeof open) => (isOpen: boolean) => setOpen(isOpen ? which : null);
  return (
    <>
      <JoinInvitation
        token={token}
        onLogIn={() => setOpen("login")}
        onSignUp={() => setOpen("signup")}
      />
      {open ? (
        <Suspense fallback={null}>
          <LoginDialog open={open === "login"} onOpenChange={openChange("login")} />
          <SignUpDialog open={open === "signup"} onOpenChange={openChange("signup")} />
        </Suspense>
      ) : null}
    </>
  );
}
