import { CircleUser, Eye, EyeOff, LogOut, Share2, User as UserIcon, Watch } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import { APP_TITLE, MESSAGES, signedInAs } from "../../shared/messages";
import type { User } from "../../shared/schemas";
import { Button } from "../components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../components/ui/dropdown-menu";
import { Spinner } from "../components/ui/spinner";
import { toast } from "../components/ui/use-toast";
import { useUser } from "../features/auth/api/get-user";
import { useLogout } from "../features/auth/api/logout";
import { useUpdateVisibility } from "../features/profiles/api/update-visibility";

// The dialogs (and their form validation) load when first opened, keeping the first download small.
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
  const { data: user, isLoading } = useUser();
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Main"
        // One row at phone width (390 px): the title may wrap inside it, the controls never do.
        className="mx-auto flex max-w-4xl items-center justify-between gap-2 px-4 py-2 sm:gap-4"
      >
        <Link
          href="/"
          className="min-w-0 text-lg leading-tight font-bold text-balance text-brand-800"
        >
          {APP_TITLE}
        </Link>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2" data-testid="session-controls">
          {isLoading ? (
            <Spinner label="Loading session" />
          ) : user ? (
            <UserMenu user={user} />
          ) : (
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

function UserMenu({ user }: { user: User }) {
  const [, navigate] = useLocation();
  const logout = useLogout();
  const visibility = useUpdateVisibility();
  const profileUrl = `/profile/${encodeURIComponent(user.username)}`;

  const shareProfile = async () => {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}${profileUrl}`);
      toast({ title: MESSAGES.linkCopied });
    } catch {
      toast({
        title: MESSAGES.copyFailed,
        description: `${window.location.origin}${profileUrl}`,
        variant: "destructive",
      });
    }
  };

  const toggleVisibility = () => {
    const isPublic = !user.isPublic;
    visibility.mutate(
      { isPublic },
      {
        onSuccess: () =>
          toast({ title: isPublic ? MESSAGES.profileNowPublic : MESSAGES.profileNowPrivate }),
        onError: () => toast({ title: MESSAGES.failedUpdateVisibility, variant: "destructive" }),
      },
    );
  };

  const logOut = () => {
    logout.mutate();
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" aria-label={MESSAGES.userMenu}>
          <CircleUser className="h-5 w-5" aria-hidden="true" />
          <span className="max-w-40 truncate">{user.displayName || user.username}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{signedInAs(user)}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(profileUrl)}>
          <UserIcon className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.viewProfile}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void shareProfile()}>
          <Share2 className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.shareProfile}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={toggleVisibility} disabled={visibility.isPending}>
          {user.isPublic ? (
            <EyeOff className="h-4 w-4" aria-hidden="true" />
          ) : (
            <Eye className="h-4 w-4" aria-hidden="true" />
          )}
          {user.isPublic ? MESSAGES.makeProfilePrivate : MESSAGES.makeProfilePublic}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate("/watch")}>
          <Watch className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.watchView}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={logOut} disabled={logout.isPending}>
          <LogOut className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.logOut}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
