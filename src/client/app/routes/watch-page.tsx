import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { ERROR_MESSAGES, isErrorCode, MESSAGES } from "../../../shared/messages";
import { loginFormSchema } from "../../../shared/schemas";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { TextField } from "../../components/ui/text-field";
import { toast } from "../../components/ui/use-toast";
import { useUser } from "../../features/auth/api/get-user";
import { useLogin } from "../../features/auth/api/login";
import { useLogout } from "../../features/auth/api/logout";
import { Recorder } from "../../features/recorder/components/recorder";
import { ApiError } from "../../lib/api-client";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useForm } from "../../lib/use-form";

export function WatchPage() {
  const { data: user, isLoading } = useUser();
  useDocumentTitle(MESSAGES.watchTitle);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-900 p-4">
      <div className="flex min-h-[340px] w-[280px] flex-col items-center gap-4 rounded-[3rem] border-8 border-slate-700 bg-black p-6 text-white">
        <h1 className="text-lg font-semibold">{MESSAGES.watchTitle}</h1>
        {isLoading ? (
          <Spinner label={MESSAGES.loadingSession} />
        ) : user ? (
          <WatchRecorderSlot />
        ) : (
          <WatchLogin />
        )}
      </div>
      <div className="flex gap-2">
        <Link href="/" className="rounded-md bg-white px-4 py-2 text-sm font-medium text-slate-900">
          {MESSAGES.backToFullApp}
        </Link>
        {user ? <WatchLogout /> : null}
      </div>
    </main>
  );
}

/** The recorder feature's watch recorder. */
function WatchRecorderSlot() {
  return (
    <div data-testid="watch-recorder-slot" className="flex w-full flex-1 flex-col items-center">
      <Recorder kind="memory" variant="watch" />
    </div>
  );
}

function WatchLogout() {
  const logout = useLogout();
  return (
    <Button variant="destructive" disabled={logout.isPending} onClick={() => logout.mutate()}>
      {MESSAGES.logout}
    </Button>
  );
}

/** The compact login form; failures show inline (spec 8). */
function WatchLogin() {
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm(loginFormSchema, { username: "", password: "" }, (data) => {
    // Not mutate's own callbacks: the logged-in watch shows the recorder in place of this form, and
    // callbacks of a form that is gone never run.
    login.mutateAsync(data).then(
      // Spec 8: logging in greets, here as in the main login.
      () => toast({ title: MESSAGES.welcomeBack }),
      (error: unknown) => {
        const code = error instanceof ApiError ? error.code : undefined;
        setFailure(isErrorCode(code) ? ERROR_MESSAGES[code] : MESSAGES.watchLoginFailed);
      },
    );
  });
  const onSubmit = (event: FormEvent) => {
    setFailure(null);
    form.onSubmit(event);
  };

  return (
    <form className="grid w-full gap-2" onSubmit={onSubmit} noValidate>
      <TextField
        tone="dark"
        label={MESSAGES.username}
        autoComplete="username"
        {...form.field("username")}
        className="h-8"
      />
      <TextField
        tone="dark"
        label={MESSAGES.password}
        type="password"
        autoComplete="current-password"
        {...form.field("password")}
        className="h-8"
      />
      {failure ? (
        <p role="alert" className="text-sm text-red-300">
          {failure}
        </p>
      ) : null}
      <Button type="submit" size="sm" disabled={login.isPending}>
        {MESSAGES.logIn}
      </Button>
    </form>
  );
}
