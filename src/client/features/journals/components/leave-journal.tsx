import { useState } from "react";
import { useLocation } from "wouter";
import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import type { Journal } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { FormAlert } from "../../../components/ui/form-alert";
import { toast } from "../../../components/ui/use-toast";
import { useRemoveMember } from "../api/remove-member";

/** A member who does not organize the journal leaves it, after a confirmation; then home. */
export function LeaveJournal({ journal }: { journal: Journal }) {
  const [, navigate] = useLocation();
  const leave = useRemoveMember(journal.id);
  const [confirming, setConfirming] = useState(false);
  const confirm = () =>
    leave.mutate(journal.memberId, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: formatMessage(JOURNAL_MESSAGES.left, { journal: journal.name }) });
        navigate("/");
      },
    });
  return (
    <div>
      <Button
        variant="outline"
        size="lg"
        onClick={() => {
          leave.reset();
          setConfirming(true);
        }}
      >
        {JOURNAL_MESSAGES.leaveJournal}
      </Button>
      {confirming ? (
        <ConfirmDialog
          title={JOURNAL_MESSAGES.leaveJournal}
          description={formatMessage(JOURNAL_MESSAGES.leaveConfirm, { journal: journal.name })}
          action={JOURNAL_MESSAGES.leaveJournal}
          pending={leave.isPending}
          onConfirm={confirm}
          onOpenChange={setConfirming}
          destructive
          alert
        >
          <FormAlert title={JOURNAL_MESSAGES.leaveFailed} error={leave.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
