import { JOURNAL_MESSAGES } from "../../../shared/journals";
import { Card } from "../../components/ui/card";
import { PageLoading } from "../../components/ui/page-loading";
import { useUser } from "../../features/auth/api/get-user";
import { useCan } from "../../features/auth/api/use-can";
import { AddMemberForm } from "../../features/journals/components/add-member-form";
import { JournalLanguageSelect } from "../../features/journals/components/journal-language-select";
import { JournalNameForm } from "../../features/journals/components/journal-name-form";
import { LeaveJournal } from "../../features/journals/components/leave-journal";
import { MembersSection } from "../../features/journals/components/members-section";
import { QuestionMailForm } from "../../features/journals/components/question-mail-form";
import { RoleDescriptions } from "../../features/journals/components/role-descriptions";
import { useOpenJournal } from "../../features/journals/open-journal";
import { errorMessage } from "../../lib/api-client";
import { useDocumentTitle } from "../../lib/use-document-title";

/**
 * /family: the open journal and its members. Organizers rename it, choose its language, and add,
 * change and remove members; everyone else sees who is in it, and may leave.
 */
export function FamilyPage() {
  useDocumentTitle(JOURNAL_MESSAGES.familyTitle);
  const { data: user, isLoading: userLoading } = useUser();
  const { journal, isLoading, error } = useOpenJournal();
  const may = useCan();
  if (userLoading || isLoading) return <PageLoading />;
  if (!user || !journal) {
    return (
      <Card className="mx-auto max-w-md text-center">
        <h1 className="text-xl font-bold">{JOURNAL_MESSAGES.familyTitle}</h1>
        <p className="mt-2 text-slate-700">
          {user && error ? errorMessage(error) : JOURNAL_MESSAGES.familyLoggedOut}
        </p>
      </Card>
    );
  }
  const manages = may("journal.manage", journal);
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-slate-900">{JOURNAL_MESSAGES.familyTitle}</h1>
        {manages ? null : <p className="text-lg text-slate-800">{journal.name}</p>}
      </header>
      {manages ? (
        <Card className="space-y-6">
          {/* Keyed by journal: another journal opened starts from its own name. */}
          <JournalNameForm key={journal.id} journal={journal} />
          <JournalLanguageSelect key={`${journal.id}-language`} journal={journal} />
        </Card>
      ) : null}
      <Card>
        <MembersSection journal={journal} manages={manages} />
      </Card>
      {manages ? (
        <Card>
          <AddMemberForm key={journal.id} journalId={journal.id} />
        </Card>
      ) : null}
      {manages ? (
        <Card>
          <QuestionMailForm key={journal.id} journalId={journal.id} />
        </Card>
      ) : null}
      <Card>
        <RoleDescriptions />
      </Card>
      {manages ? null : <LeaveJournal journal={journal} />}
    </div>
  );
}
