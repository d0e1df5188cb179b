import { JOURNAL_MESSAGES } from "../../../../shared/journals";
import { MESSAGES } from "../../../../shared/messages";
import type { Journal } from "../../../../shared/schemas";
import { Notice } from "../../../components/ui/notice";
import { Spinner } from "../../../components/ui/spinner";
import { useMembers } from "../api/get-members";
import { MemberRow } from "./member-row";

/**
 * Everyone in the journal with their role; an organizer manages each one, and is asked to name a
 * second organizer while they are the only one among others.
 */
export function MembersSection({ journal, manages }: { journal: Journal; manages: boolean }) {
  const members = useMembers(journal.id);
  const list = members.data ?? [];
  const organizers = list.filter((member) => member.role === "organizer").length;
  const alone = organizers === 1 && list.length > 1;
  return (
    <section aria-labelledby="members" className="space-y-3">
      <h2 id="members" className="text-lg font-semibold text-slate-900">
        {JOURNAL_MESSAGES.membersTitle}
      </h2>
      {manages && alone ? <Notice>{JOURNAL_MESSAGES.secondOrganizerHint}</Notice> : null}
      {members.isLoading ? (
        <Spinner label={MESSAGES.loading} />
      ) : members.error ? (
        <p className="text-red-800">{JOURNAL_MESSAGES.membersFailed}</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-labelledby="members">
          {list.map((member) => (
            <MemberRow key={member.id} journalId={journal.id} member={member} manages={manages} />
          ))}
        </ul>
      )}
    </section>
  );
}
