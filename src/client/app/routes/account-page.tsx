import { Download, Trash2, Upload } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { useLocation } from "wouter";
import { MESSAGES, restoreSummary } from "../../../shared/messages";
import {
  changePasswordFormSchema,
  displayNameFormSchema,
  emailFormSchema,
  type User,
} from "../../../shared/schemas";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { PageLoading } from "../../components/ui/page-loading";
import { Spinner } from "../../components/ui/spinner";
import { TextField } from "../../components/ui/text-field";
import { toast } from "../../components/ui/use-toast";
import { useChangePassword } from "../../features/account/api/change-password";
import { useDeleteAccount } from "../../features/account/api/delete-account";
import { useRestoreBackup } from "../../features/account/api/restore-backup";
import { useUpdateAccount } from "../../features/account/api/update-account";
import { DeleteAccountDialog } from "../../features/account/components/delete-account-dialog";
import { useUser } from "../../features/auth/api/get-user";
import { useBackupDownload } from "../../features/memories/api/backup-memories";
import { RemindersSection } from "../../features/reminders/components/reminders-section";
import { ShareLinksSection } from "../../features/share-links/components/share-links-section";
import { BetterTranscriptsSection } from "../../features/transcripts/components/better-transcripts-section";
import { ApiError, errorMessage } from "../../lib/api-client";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useForm } from "../../lib/use-form";

/** /account: display name, email, password, and deleting the account (backup offered first). */
export function AccountPage() {
  const { data: user, isLoading } = useUser();
  useDocumentTitle(MESSAGES.accountTitle);
  if (isLoading) return <PageLoading />;
  if (!user) {
    return (
      <Card className="mx-auto max-w-md text-center">
        <h1 className="text-xl font-bold">{MESSAGES.accountTitle}</h1>
        <p className="mt-2 text-slate-700">{MESSAGES.accountLoggedOut}</p>
      </Card>
    );
  }
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900">{MESSAGES.accountTitle}</h1>
        <p className="mt-1 text-slate-700">
          {MESSAGES.usernameLabel}{" "}
          <span className="font-medium text-slate-900">{user.username}</span>
        </p>
      </header>
      <DisplayNameSection user={user} />
      <EmailSection user={user} />
      <PasswordSection />
      <RemindersSection />
      <ShareLinksSection />
      <BetterTranscriptsSection />
      <RestoreSection />
      <DangerZone />
    </div>
  );
}

function Section({
  id,
  title,
  children,
  className,
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={className}>
      <section aria-labelledby={id} className="space-y-4">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

const failedUpdate = (error: unknown) =>
  toast({
    title: MESSAGES.failedUpdateAccount,
    description: errorMessage(error),
    variant: "destructive",
  });

function DisplayNameSection({ user }: { user: User }) {
  const update = useUpdateAccount();
  const form = useForm(displayNameFormSchema, { displayName: user.displayName ?? "" }, (data) => {
    update.mutate(
      { displayName: data.displayName },
      { onSuccess: () => toast({ title: MESSAGES.displayNameSaved }), onError: failedUpdate },
    );
  });
  return (
    <Section id="account-display-name" title={MESSAGES.displayName}>
      <form className="grid gap-4" onSubmit={form.onSubmit} noValidate>
        <p className="text-sm text-slate-700">{MESSAGES.displayNameHint}</p>
        <TextField
          label={MESSAGES.displayName}
          autoComplete="name"
          {...form.field("displayName")}
        />
        <div>
          <Button type="submit" disabled={update.isPending}>
            {MESSAGES.saveDisplayName}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function EmailSection({ user }: { user: User }) {
  const update = useUpdateAccount();
  const form = useForm(
    emailFormSchema,
    { email: user.email ?? "", currentPassword: "" },
    (data) => {
      update.mutate(
        { email: data.email, currentPassword: data.currentPassword },
        {
          onSuccess: () => {
            // The password is asked for each change; the email stays as saved.
            form.field("currentPassword").onChange({ target: { value: "" } });
            toast({ title: MESSAGES.emailSaved });
          },
          onError: failedUpdate,
        },
      );
    },
  );
  return (
    <Section id="account-email" title={MESSAGES.email}>
      <form className="grid gap-4" onSubmit={form.onSubmit} noValidate>
        <p className="text-sm text-slate-700">{MESSAGES.emailHint}</p>
        <TextField
          label={MESSAGES.email}
          type="email"
          autoComplete="email"
          {...form.field("email")}
        />
        <TextField
          label={MESSAGES.currentPassword}
          type="password"
          autoComplete="current-password"
          {...form.field("currentPassword")}
        />
        <div>
          <Button type="submit" disabled={update.isPending}>
            {MESSAGES.saveEmail}
          </Button>
        </div>
      </form>
    </Section>
  );
}

const EMPTY_PASSWORDS = { currentPassword: "", newPassword: "", confirmPassword: "" };

function PasswordSection() {
  const change = useChangePassword();
  // The server's answer to a wrong current password shows under that field, not in a toast.
  const [wrongCurrent, setWrongCurrent] = useState(false);
  const form = useForm(changePasswordFormSchema, EMPTY_PASSWORDS, (data) => {
    change.mutate(
      { currentPassword: data.currentPassword, newPassword: data.newPassword },
      {
        onSuccess: () => {
          form.reset();
          toast({
            title: MESSAGES.passwordChanged,
            description: MESSAGES.passwordChangedDescription,
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === "auth.wrong_current_password") {
            setWrongCurrent(true);
            return;
          }
          toast({
            title: MESSAGES.failedChangePassword,
            description: errorMessage(error),
            variant: "destructive",
          });
        },
      },
    );
  });
  const current = form.field("currentPassword");
  return (
    <Section id="account-password" title={MESSAGES.changePassword}>
      <form className="grid gap-4" onSubmit={form.onSubmit} noValidate>
        <p className="text-sm text-slate-700">{MESSAGES.passwordChangeHint}</p>
        <TextField
          label={MESSAGES.currentPassword}
          type="password"
          autoComplete="current-password"
          {...current}
          error={current.error ?? (wrongCurrent ? MESSAGES.currentPasswordIncorrect : undefined)}
          onChange={(event) => {
            setWrongCurrent(false);
            current.onChange(event);
          }}
        />
        <TextField
          label={MESSAGES.newPassword}
          type="password"
          autoComplete="new-password"
          {...form.field("newPassword")}
        />
        <TextField
          label={MESSAGES.confirmPassword}
          type="password"
          autoComplete="new-password"
          {...form.field("confirmPassword")}
        />
        <div>
          <Button type="submit" disabled={change.isPending}>
            {MESSAGES.changePassword}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function RestoreSection() {
  const restore = useRestoreBackup();
  const [file, setFile] = useState<File | null>(null);
  const result = restore.data;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    restore.mutate(file, {
      onSuccess: (done) =>
        toast({ title: MESSAGES.backupRestored, description: restoreSummary(done) }),
      onError: (error) =>
        toast({
          title: MESSAGES.restoreFailed,
          description: errorMessage(error),
          variant: "destructive",
        }),
    });
  };
  return (
    <Section id="account-restore" title={MESSAGES.restoreFromBackup}>
      <form className="grid gap-4" onSubmit={onSubmit}>
        <p className="text-sm text-slate-700">{MESSAGES.restoreHint}</p>
        <label className="grid gap-1 text-sm font-medium text-slate-900">
          {MESSAGES.restoreChooseFile}
          <input
            type="file"
            accept=".zip,application/zip"
            className="min-h-11 text-sm"
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
        </label>
        <div>
          <Button type="submit" disabled={!file || restore.isPending}>
            <Upload className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.restoreFromBackup}
          </Button>
        </div>
        <div aria-live="polite" className="text-sm text-slate-800">
          {restore.isPending ? (
            <p className="flex items-center gap-2">
              <Spinner /> {MESSAGES.restoreRunning}
            </p>
          ) : null}
          {result && !restore.isPending ? (
            <div className="space-y-1">
              <p>{restoreSummary(result)}</p>
              {result.failed.length > 0 ? (
                <ul className="list-disc ps-5 text-red-800">
                  {result.failed.map((item) => (
                    <li key={item.id}>
                      {item.title || "Untitled memory"}: {item.reason}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </div>
      </form>
    </Section>
  );
}

function DangerZone() {
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const backup = useBackupDownload();
  const remove = useDeleteAccount();
  const onConfirm = (typed: string, currentPassword: string) => {
    remove.mutate(
      { confirm: typed, currentPassword },
      {
        onSuccess: () => {
          setConfirming(false);
          toast({
            title: MESSAGES.accountDeleted,
            description: MESSAGES.accountDeletedDescription,
          });
          navigate("/");
        },
        onError: (error) =>
          toast({
            title: MESSAGES.failedDeleteAccount,
            description: errorMessage(error),
            variant: "destructive",
          }),
      },
    );
  };
  return (
    <Section id="account-delete" title={MESSAGES.deleteAccount} className="border-red-300">
      <p className="text-sm text-slate-700">{MESSAGES.deleteAccountHint}</p>
      <div className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={() => void backup.download()} disabled={backup.pending}>
          <Download className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.downloadBackupFirst}
        </Button>
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.deleteAccount}
        </Button>
      </div>
      <DeleteAccountDialog
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={onConfirm}
        pending={remove.isPending}
      />
    </Section>
  );
}
