import { BookOpen, Download } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { memoryFacts } from "../../../../shared/memory-facts";
import { MEMORY_BOOK, MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { PageLoading } from "../../../components/ui/page-loading";
import { useCan } from "../../auth/api/use-can";
import { tellersOf, useMembers } from "../../journals/api/get-members";
import { useOpenJournal } from "../../journals/open-journal";
import { useBackupDownload } from "../api/backup-memories";
import { useJournalMemories } from "../api/get-memories";
import { MemoryList } from "./memory-list";
import { SearchBox } from "./search-box";
import { StorytellerFilter } from "./storyteller-filter";
import { useListParams } from "./use-list-params";
import { YearNavigator } from "./year-navigator";

const MemoryBookDialog = lazy(() =>
  import("./memory-book-dialog").then((m) => ({ default: m.MemoryBookDialog })),
);

/**
 * Home, logged in: the open journal's 'Recent Memories' with search, years and, in a family, a
 * storyteller to narrow them to; the memory book and Backup Memories for those who look after it.
 */
export function JournalMemories() {
  const may = useCan();
  // Page, search and storyteller live in the URL (/?page=2&q=beach): they survive Back and reload.
  const { page, search, storyteller, setPage, setSearch, setStoryteller } = useListParams();
  const opened = useOpenJournal();
  const journal = opened.journal;
  const members = useMembers(journal?.id).data;
  const tellers = tellersOf(members);
  const backup = useBackupDownload();
  const [bookOpen, setBookOpen] = useState(false);
  const memories = useJournalMemories({ journalId: journal?.id, page, search, storyteller });

  // The list and what the reader may do with it come together: nothing pops in after.
  if (opened.isLoading) return <PageLoading />;
  const searching = search.trim() !== "";
  // A person alone sees the list as before: no storyteller to choose, no name on every card.
  const family = (members?.length ?? 0) > 1;
  const manages = journal ? may("journal.manage", journal) : false;
  return (
    <section className="space-y-4" aria-labelledby="recent-memories">
      {manages ? (
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setBookOpen(true)}>
            <BookOpen className="h-4 w-4" aria-hidden="true" />
            {MEMORY_BOOK.button}
          </Button>
          <Button
            variant="outline"
            onClick={() => void backup.download()}
            disabled={backup.pending}
          >
            <Download className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.backupMemories}
          </Button>
        </div>
      ) : null}
      {bookOpen ? (
        <Suspense fallback={null}>
          <MemoryBookDialog open={bookOpen} onOpenChange={setBookOpen} />
        </Suspense>
      ) : null}
      <SearchBox value={search} onSearch={setSearch} />
      {tellers.length > 1 ? (
        <StorytellerFilter tellers={tellers} value={storyteller} onChange={setStoryteller} />
      ) : null}
      <h2 id="recent-memories" className="text-xl font-semibold">
        {MESSAGES.recentMemories}
      </h2>
      {searching || !journal ? null : (
        <YearNavigator
          list={{ journalId: journal.id, storyteller }}
          total={memories.isPlaceholderData ? undefined : memories.data?.total}
        />
      )}
      <MemoryList
        data={memories.data}
        isLoading={memories.isLoading}
        error={memories.error || opened.error ? MESSAGES.failedFetchMemories : null}
        page={page}
        onPage={setPage}
        isOwner={(memory) => may("memory.edit", memoryFacts(memory))}
        showStoryteller={family}
        search={search}
        empty={
          <>
            <p>{MESSAGES.noMemoriesFound}</p>
            {searching ? null : <p className="text-slate-700">{MESSAGES.startByRecording}</p>}
          </>
        }
      />
    </section>
  );
}
