import { useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { SHARE_MESSAGES, type ShareLink } from "../../../../shared/share-links";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast, toastError } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { formatRecordedAt } from "../../../lib/format-date";
import { useShareLinks } from "../api/get-share-links";
import { useRemoveSubscriber } from "../api/remove-subscriber";
import { useRevokeShareLink } from "../api/revoke-share-link";
import { CreateShareLinkForm } from "./create-share-link-form";

/** The account page's share links (ADR 0019): make, mail, copy once, see use, revoke. */
export function ShareLinksSection() {
  const links = useShareLinks();
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  return (
    <Card>
      <section aria-labelledby="account-share-links" className="space-y-4">
        <h2 id="account-share-links" className="text-lg font-semibold text-slate-900">
          {SHARE_MESSAGES.sectionTitle}
        </h2>
        <p className="text-sm text-slate-700">{SHARE_MESSAGES.sectionDescription}</p>
        <CreateShareLinkForm />
        {links.isLoading ? (
          <Spinner />
        ) : links.error ? (
          <p className="text-sm text-red-700">{errorMessage(links.error)}</p>
        ) : links.data && links.data.length > 0 ? (
          <ul className="divide-y divide-slate-200" data-testid="share-links">
            {links.data.map((link) => (
              <li
                key={link.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="share-link"
              >
                <div className="min-w-0 space-y-1">
                  <p className="font-medium text-slate-900">{link.label}</p>
                  <p className="text-sm text-slate-700">
                    {SHARE_MESSAGES.createdAt} {formatRecordedAt(link.createdAt)} ·{" "}
                    {link.lastUsedAt
                      ? `${SHARE_MESSAGES.lastUsed} ${formatRecordedAt(link.lastUsedAt)}`
                      : SHARE_MESSAGES.neverUsed}{" "}
                    · {SHARE_MESSAGES.visits}: {link.visits}
                  </p>
                  <Subscribers link={link} />
                </div>
                <Button
                  variant="outline"
                  onClick={() => setRevoking(link)}
                  aria-label={formatMessage(SHARE_MESSAGES.revokeNamed, { label: link.label })}
                >
                  {SHARE_MESSAGES.revoke}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">{SHARE_MESSAGES.none}</p>
        )}
      </section>
      {revoking ? <RevokeDialog link={revoking} onClose={() => setRevoking(null)} /> : null}
    </Card>
  );
}

/** The addresses that get news of new stories through the link, each with Remove (ADR 0044). */
function Subscribers({ link }: { link: ShareLink }) {
  const remove = useRemoveSubscriber();
  if (link.subscribers.length === 0) return null;
  return (
    <div className="text-sm text-slate-700">
      <p>{SHARE_MESSAGES.subscribers}:</p>
      <ul className="space-y-1" aria-label={`${SHARE_MESSAGES.subscribers} ${link.label}`}>
        {link.subscribers.map((subscriber) => (
          <li key={subscriber.id} className="flex flex-wrap items-center gap-2">
            <span className="break-all">{subscriber.email}</span>
            {subscriber.confirmed ? null : (
              <span className="text-slate-500">{SHARE_MESSAGES.awaitingConfirmation}</span>
            )}
            <Button
              variant="outline"
              size="tap"
              disabled={remove.isPending}
              aria-label={formatMessage(SHARE_MESSAGES.removeSubscriberLabel, {
                email: subscriber.email,
              })}
              onClick={() =>
                remove.mutate(
                  { linkId: link.id, subscriberId: subscriber.id },
                  {
                    onSuccess: () => toast({ title: SHARE_MESSAGES.subscriberRemoved }),
                    onError: (error) => toastError(SHARE_MESSAGES.removeSubscriberFailed, error),
                  },
                )
              }
            >
              {SHARE_MESSAGES.removeSubscriber}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function RevokeDialog({ link, onClose }: { link: ShareLink; onClose: () => void }) {
  const revoke = useRevokeShareLink();
  const confirm = () =>
    revoke.mutate(link.id, {
      onSuccess: () => {
        toast({ title: SHARE_MESSAGES.revoked });
        onClose();
      },
      onError: (error) => toastError(SHARE_MESSAGES.revokeFailed, error),
    });
  return (
    <ConfirmDialog
      title={SHARE_MESSAGES.revokeTitle}
      description={formatMessage(SHARE_MESSAGES.revokeDescriptionNamed, {
        label: link.label,
        description: SHARE_MESSAGES.revokeDescription,
      })}
      action={SHARE_MESSAGES.revoke}
      onOpenChange={(open) => (open ? undefined : onClose())}
      onConfirm={confirm}
      pending={revoke.isPending}
      destructive
    />
  );
}
