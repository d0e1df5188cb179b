import { BookOpen, Download } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { MEMORY_BOOK, MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { useCan } from "../../auth/api/use-can";
import { useBackupDownload } from "../api/backup-memories";
import { useMemories } from "../api/get-memories";
import { MemoryList } from "./memory-list";
import { SearchBox } from "./search-box";
import { useListParams } from "./use-list-params";
import { YearNavigator } from "./year-navigator";

const MemoryBookDialog = lazy(() =>
  import("./memory-book-dialog").then((m) => ({ default: m.MemoryBookDialog })),
);

/** Home, logged in: the memory book, Backup Memories, the search box and 'Recent Memories'. */
export function OwnMemories() {
  const may = useCan();
  // Page and search live in the URL (/?page=2&q=beach): they survive Back and reload.
  const { page, search, setPage, setSearch } = useListParams();
  const backup = useBackupDownload();
  const [bookOpen, setBookOpen] = useState(false);
  const memories = useMemories({ page, search });

  const searching = search.trim() !== "";
  return (
    <section className="space-y-4" aria-labelledby="recent-memories">
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={() => setBookOpen(true)}>
          <BookOpen className="h-4 w-4" aria-hidden="true" />
          {MEMORY_BOOK.button}
        </Button>
        <Button variant="outline" onClick={() => void backup.download()} disabled={backup.pending}>
          <Download className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.backupMemories}
        </Button>
      </div>
      {bookOpen ? (
        <Suspense fallback={null}>
          <MemoryBookDialog open={bookOpen} onOpenChange={setBookOpen} />
        </Suspense>
      ) : null}
      <SearchBox value={search} onSearch={setSearch} />
      <h2 id="recent-memories" className="text-xl font-semibold">
        {MESSAGES.recentMemories}
      </h2>
      {searching ? null : (
        <YearNavigator total={memories.isPlaceholderData ? undefined : memories.data?.total} />
      )}
      <MemoryList
        data={memories.data}
        isLoading={memories.isLoading}
        error={memories.error ? MESSAGES.failedFetchMemories : null}
        page={page}
        onPage={setPage}
        isOwner={(memory) => may("memory.edit", memory)}
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
