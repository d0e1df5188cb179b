import { Watch } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import { MESSAGES } from "../../shared/messages";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { useUser } from "../features/auth/api/get-user";
import { JournalSwitcher } from "../features/journals/components/journal-switcher";
import { useIsRelativeView } from "../lib/relative-view";
import { UserMenu } from "./user-menu";

const LoginDialog = lazy(() =>
  import("../features/auth/components/login-dialog").then((m) => ({ default: m.LoginDialog })),
);
const SignUpDialog = lazy(() =>
  import("../features/auth/components/sign-up-dialog").then((m) => ({ default: m.SignUpDialog })),
);
const ForgotPasswordDialog = lazy(() =>
  import("../features/auth/components/forgot-password-dialog").then((m) => ({
    default: m.ForgotPasswordDialog,
  })),
);

export function TopBar() {
  const { data: user, isLoading, fetchStatus } = useUser();
  // Offline (the installed app opened from its cache) nobody is known yet: offering Log in to
  // someone who is logged in would mislead. The user is asked for when the connection returns.
  const unknownOffline = user === undefined && fetchStatus === "paused";
  // A relative come through a share link needs no account: no Log in or Sign up for them, nor
  // while it is not yet known whether this browser is a relative's.
  const relative = useIsRelativeView();
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label={MESSAGES.mainNavigation}
        // One row at phone width (390 px): the title may wrap inside it, the controls never do.
        className="mx-auto flex max-w-4xl items-center justify-between gap-2 px-4 py-2 sm:gap-4"
      >
        <Link
          href="/"
          className="min-w-0 text-lg leading-tight font-bold text-balance text-brand-800"
        >
          {MESSAGES.appTitle}
        </Link>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2" data-testid="session-controls">
          {isLoading ? (
            <Spinner label={MESSAGES.loadingSession} />
          ) : user ? (
            <>
              <JournalSwitcher />
              <UserMenu user={user} />
            </>
          ) : unknownOffline || relative !== false ? null : (
            <LoggedOutControls />
          )}
        </div>
      </nav>
    </header>
  );
}

function LoggedOutControls() {
  const [open, setOpen] = useState<"login" | "signup" | "forgot" | null>(null);
  const openChange = (which: typeof open) => (isOpen: boolean) => setOpen(isOpen ? which : null);
  return (
    <>
      <Link
        href="/watch"
        // An icon on phones (its name stays for screen readers), the word from sm up.
        className="inline-flex h-11 min-w-11 items-center justify-center gap-2 rounded-md text-sm font-medium text-slate-800 hover:bg-brand-100 sm:px-3"
      >
        <Watch className="h-5 w-5 sm:h-4 sm:w-4" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">{MESSAGES.watchView}</span>
      </Link>
      <Button variant="outline" size="tap" onClick={() => setOpen("login")}>
        {MESSAGES.logIn}
      </Button>
      <Button size="tap" onClick={() => setOpen("signup")}>
        {MESSAGES.signUp}
      </Button>
      {/* On phones it would take a second row: the Log in dialog offers it there. */}
      <button
        type="button"
        className="hidden h-11 items-center text-sm text-brand-700 underline underline-offset-2 hover:text-brand-800 sm:inline-flex"
        onClick={() => setOpen("forgot")}
      >
        {MESSAGES.forgotPassword}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <LoginDialog
            open={open === "login"}
            onOpenChange={openChange("login")}
            onForgotPassword={() => setOpen("forgot")}
          />
          <SignUpDialog open={open === "signup"} onOpenChange={openChange("signup")} />
          <ForgotPasswordDialog open={open === "forgot"} onOpenChange={openChange("forgot")} />
        </Suspense>
      ) : null}
    </>
  );
}
