import { Link2, Printer, X } from "lucide-react";
import { useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { RECORDING_LINK_MESSAGES, recordingCardFilename } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import type { Member } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { CreatedLink } from "../../share-links/components/created-link";
import {
  useMakeRecordingLink,
  usePrintRecordingCard,
  useShowRecordingLink,
  useStopRecordingLink,
} from "../api/recording-link-actions";

export interface RecordingLinkActionsProps {
  journalId: string;
  member: Pick<Member, "id" | "name" | "hasRecordingLink">;
  /** Called after the link was made, printed or stopped (the member list may refresh). */
  onChanged?: () => void;
}

/**
 * An organizer's actions for one storyteller's personal recording link (ADR 0060, 0064): make or
 * renew one, show it again to copy, print the fridge card of the current link, or stop it. The Family page
 * shows it beside each storyteller.
 */
export function RecordingLinkActions({ journalId, member, onChanged }: RecordingLinkActionsProps) {
  const make = useMakeRecordingLink(journalId, member.id);
  const print = usePrintRecordingCard(journalId, member.id);
  const stop = useStopRecordingLink(journalId, member.id);
  const show = useShowRecordingLink(journalId, member.id);
  const [made, setMade] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = make.isPending || print.isPending || stop.isPending || show.isPending;
  const hasLink = member.hasRecordingLink || made !== null;
  const failed = (error: unknown) =>
    toast({
      title: RECORDING_LINK_MESSAGES.failed,
      description: errorMessage(error),
      variant: "destructive",
    });

  return (
    <div className="space-y-3" data-testid="recording-link-actions">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          className="min-h-11"
          disabled={busy}
          onClick={() =>
            make.mutate(undefined, {
              onSuccess: ({ url }) => {
                setMade(url);
                setConfirming(false);
                onChanged?.();
              },
              onError: failed,
            })
          }
        >
          <Link2 className="h-4 w-4" aria-hidden="true" />
          {member.hasRecordingLink ? RECORDING_LINK_MESSAGES.makeNew : RECORDING_LINK_MESSAGES.make}
        </Button>
        {hasLink && !made ? (
          <Button
            variant="secondary"
            className="min-h-11"
            disabled={busy}
            onClick={() =>
              show.mutate(undefined, { onSuccess: ({ url }) => setMade(url), onError: failed })
            }
          >
            <Link2 className="h-4 w-4" aria-hidden="true" />
            {RECORDING_LINK_MESSAGES.showLink}
          </Button>
        ) : null}
        {hasLink ? (
          <Button
            variant="secondary"
            className="min-h-11"
            disabled={busy}
            onClick={() =>
              print.mutate(recordingCardFilename(member.name), {
                onSuccess: () =>
                  toast({
                    title: formatMessage(RECORDING_LINK_MESSAGES.cardReady, { name: member.name }),
                  }),
                onError: failed,
              })
            }
          >
            <Printer className="h-4 w-4" aria-hidden="true" />
            {RECORDING_LINK_MESSAGES.printCard}
          </Button>
        ) : null}
        {hasLink ? (
          <Button
            variant="outline"
            className="min-h-11"
            disabled={busy}
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            <X className="h-4 w-4" aria-hidden="true" />
            {RECORDING_LINK_MESSAGES.stop}
          </Button>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">
        {hasLink
          ? `${RECORDING_LINK_MESSAGES.makeNote} ${RECORDING_LINK_MESSAGES.cardNote}`
          : RECORDING_LINK_MESSAGES.cardNote}
      </p>
      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby={`stop-link-${member.id}`}
          className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3"
        >
          <p id={`stop-link-${member.id}`} className="text-sm text-slate-900">
            {formatMessage(RECORDING_LINK_MESSAGES.stopConfirm, { name: member.name })}
          </p>
          <div className="flex gap-2">
            <Button
              variant="destructive"
              className="min-h-11"
              disabled={busy}
              onClick={() =>
                stop.mutate(undefined, {
                  onSuccess: () => {
                    setMade(null);
                    setConfirming(false);
                    toast({
                      title: formatMessage(RECORDING_LINK_MESSAGES.stopped, { name: member.name }),
                    });
                    onChanged?.();
                  },
                  onError: failed,
                })
              }
            >
              {RECORDING_LINK_MESSAGES.stop}
            </Button>
            <Button variant="ghost" className="min-h-11" onClick={() => setConfirming(false)}>
              {MESSAGES.cancel}
            </Button>
          </div>
        </div>
      ) : null}
      {made ? (
        <CreatedLink
          label={formatMessage(RECORDING_LINK_MESSAGES.made, { name: member.name })}
          url={made}
          note={RECORDING_LINK_MESSAGES.copyAgain}
        />
      ) : null}
    </div>
  );
}
