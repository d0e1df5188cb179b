import { Watch } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import { APP_TITLE, MESSAGES } from "../../shared/messages";
import type { User } from "../../shared/schemas";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { useUser } from "../features/auth/api/get-user";
import { UserMenuButton } from "./user-menu-button";

// The dropdown (Radix menu, positioning, focus handling: about 20 kB) loads after first paint; its
// button is drawn at once, and a tap before the code arrives opens the menu when it does.
const UserMenu = lazy(() => import("./user-menu").then((m) => ({ default: m.UserMenu })));

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
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-4 px-4 py-3"
      >
        <Link href="/" className="text-lg font-bold text-brand-800">
          {APP_TITLE}
        </Link>
        <div className="flex flex-wrap items-center gap-2" data-testid="session-controls">
          {isLoading ? (
            <Spinner label="Loading session" />
          ) : user ? (
            <LazyUserMenu user={user} />
          ) : unknownOffline ? null : (
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
        className="inline-flex h-10 items-center gap-2 rounded-md px-3 text-sm font-medium text-slate-800 hover:bg-brand-100"
      >
        <Watch className="h-4 w-4" aria-hidden="true" />
        {MESSAGES.watchView}
      </Link>
      <Button variant="outline" onClick={() => setOpen("login")}>
        {MESSAGES.logIn}
      </Button>
      <Button onClick={() => setOpen("signup")}>{MESSAGES.signUp}</Button>
      <button
        type="button"
        className="text-sm text-brand-700 underline underline-offset-2 hover:text-brand-800"
        onClick={() => setOpen("forgot")}
      >
        {MESSAGES.forgotPassword}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <LoginDialog open={open === "login"} onOpenChange={openChange("login")} />
          <SignUpDialog open={open === "signup"} onOpenChange={openChange("signup")} />
          <ForgotPasswordDialog open={open === "forgot"} onOpenChange={openChange("forgot")} />
        </Suspense>
      ) : null}
    </>
  );
}

function LazyUserMenu({ user }: { user: User }) {
  const [openOnLoad, setOpenOnLoad] = useState(false);
  return (
    <Suspense fallback={<UserMenuButton user={user} onClick={() => setOpenOnLoad(true)} />}>
      <UserMenu user={user} defaultOpen={openOnLoad} />
    </Suspense>
  );
}
