import { useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { JOURNAL_MESSAGES, type JournalRole, ROLE_LABELS } from "../../../../shared/journals";
import type { Member } from "../../../../shared/schemas";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { FormAlert } from "../../../components/ui/form-alert";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { RecordingLinkActions } from "../../recording-link/components/recording-link-actions";
import { useRemoveMember } from "../api/remove-member";
import { useChangeRole } from "../api/update-member";
import { MemberQuestions } from "./member-questions";
import { RoleSelect } from "./role-select";

/** One member: their name and role; an organizer also sees their email and changes or removes them. */
export function MemberRow({
  journalId,
  member,
  manages,
}: {
  journalId: string;
  member: Member;
  /** The reader organizes the journal. */
  manages: boolean;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0 space-y-1">
        <p className="font-medium break-words text-slate-900">
          {member.name}
          {member.isYou ? <Badge className="ms-2">{JOURNAL_MESSAGES.you}</Badge> : null}
        </p>
        {manages && member.email ? (
          <p className="text-sm break-all text-slate-700">{member.email}</p>
        ) : null}
        <MemberState member={member} />
        {manages ? null : <p className="text-sm text-slate-700">{ROLE_LABELS[member.role]}</p>}
      </div>
      {manages ? <MemberControls journalId={journalId} member={member} /> : null}
      {/* Invited at an address, a storyteller may never join: their link (and with it the weekly
          question by mail) is offered from the start. */}
      {manages && member.role !== "relative" ? (
        <div className="w-full">
          <RecordingLinkActions journalId={journalId} member={member} />
        </div>
      ) : null}
      {member.role !== "relative" &&
      (!member.invitationPending || member.hasRecordingLink) &&
      !member.isYou ? (
        <MemberQuestions journalId={journalId} member={member} manages={manages} />
      ) : null}
    </li>
  );
}

function MemberState({ member }: { member: Member }) {
  if (member.invitationPending) {
    return (
      <Badge className="bg-amber-100 text-amber-900">{JOURNAL_MESSAGES.invitationPending}</Badge>
    );
  }
  if (!member.hasAccount) {
    return <p className="text-sm text-slate-700">{JOURNAL_MESSAGES.noAccount}</p>;
  }
  return null;
}

/** An organizer's controls for one member: the role, and Remove after a confirmation. */
function MemberControls({ journalId, member }: { journalId: string; member: Member }) {
  const changeRole = useChangeRole(journalId);
  const remove = useRemoveMember(journalId);
  const [confirming, setConfirming] = useState(false);
  const choose = (role: JournalRole) =>
    changeRole.mutate(
      { memberId: member.id, role },
      {
        onSuccess: (changed) =>
          toast({
            title: formatMessage(JOURNAL_MESSAGES.roleChanged, {
              name: changed.name,
              role: changed.role,
            }),
          }),
        onError: (error) =>
          toast({
            title: JOURNAL_MESSAGES.changeRoleFailed,
            description: errorMessage(error),
            variant: "destructive",
          }),
      },
    );
  const confirmRemove = async () => {
    try {
      await remove.mutateAsync(member.id);
    } catch {
      return; // The dialog says why (remove.error).
    }
    // The list is read again before the mutation settles and this row is gone by then, so a
    // callback of `mutate` would never run: the toast is said here.
    setConfirming(false);
    toast({ title: formatMessage(JOURNAL_MESSAGES.memberRemoved, { name: member.name }) });
  };
  return (
    <div className="flex items-end gap-2">
      <RoleSelect
        label={formatMessage(JOURNAL_MESSAGES.memberRole, { name: member.name })}
        hideLabel
        value={member.role}
        onChange={choose}
        disabled={changeRole.isPending}
      />
      <Button
        variant="outline"
        size="lg"
        aria-label={formatMessage(JOURNAL_MESSAGES.removeMemberNamed, { name: member.name })}
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        {JOURNAL_MESSAGES.removeMember}
      </Button>
      {confirming ? (
        <ConfirmDialog
          title={JOURNAL_MESSAGES.removeMemberTitle}
          description={formatMessage(JOURNAL_MESSAGES.removeMemberConfirm, { name: member.name })}
          action={JOURNAL_MESSAGES.removeMember}
          pending={remove.isPending}
          onConfirm={confirmRemove}
          onOpenChange={setConfirming}
          destructive
          alert
        >
          <FormAlert title={JOURNAL_MESSAGES.removeMemberFailed} error={remove.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
