import { useLocation } from "wouter";
import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import type { Invitation } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { FormAlert } from "../../../components/ui/form-alert";
import { PageLoading } from "../../../components/ui/page-loading";
import { toast } from "../../../components/ui/use-toast";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { useUser } from "../../auth/api/get-user";
import { useInvitation, useJoinJournal } from "../api/invitation";
import { useOpenJournal } from "../open-journal";

/**
 * Where an invitation mail's link lands: what the person is invited to; logged out, Log in or Sign
 * up first (the page stays); logged in, Join opens the journal at home.
 */
export function JoinInvitation({
  token,
  onLogIn,
  onSignUp,
}: {
  token: string;
  onLogIn: () => void;
  onSignUp: () => void;
}) {
  const invitation = useInvitation(token);
  const { data: user, isLoading } = useUser();
  if (invitation.isLoading || isLoading) return <PageLoading />;
  return (
    <Card className="mx-auto max-w-md space-y-4 text-center">
      <h1 className="text-xl font-bold text-slate-900">{JOURNAL_MESSAGES.joinTitle}</h1>
      {invitation.data ? (
        <>
          <p className="text-slate-800">
            {formatMessage(JOURNAL_MESSAGES.joinInvited, {
              journal: invitation.data.journalName,
              role: invitation.data.role,
            })}
          </p>
          {user ? (
            <JoinButton token={token} invitation={invitation.data} />
          ) : (
            <div className="flex flex-wrap justify-center gap-2">
              <Button variant="outline" size="lg" onClick={onLogIn}>
                {JOURNAL_MESSAGES.joinLogIn}
              </Button>
              <Button size="lg" onClick={onSignUp}>
                {JOURNAL_MESSAGES.joinSignUp}
              </Button>
            </div>
          )}
        </>
      ) : (
        <p className="text-slate-800">
          {invitation.error instanceof ApiError && invitation.error.status === 404
            ? JOURNAL_MESSAGES.joinInvalid
            : errorMessage(invitation.error)}
        </p>
      )}
    </Card>
  );
}

function JoinButton({ token, invitation }: { token: string; invitation: Invitation }) {
  const join = useJoinJournal(token);
  const { open } = useOpenJournal();
  const [, navigate] = useLocation();
  const accept = () =>
    join.mutate(undefined, {
      onSuccess: ({ journalId }) => {
        open(journalId);
        toast({
          title: formatMessage(JOURNAL_MESSAGES.joined, { journal: invitation.journalName }),
        });
        navigate("/");
      },
    });
  return (
    <div className="space-y-3">
      <FormAlert title={JOURNAL_MESSAGES.joinFailed} error={join.error} />
      <Button size="lg" onClick={accept} disabled={join.isPending}>
        {JOURNAL_MESSAGES.joinAccept}
      </Button>
    </div>
  );
}
