import { Download } from "lucide-react";
import { useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";
import { downloadBackup } from "../api/backup-memories";
import { useMemories } from "../api/get-memories";
import { MemoryList } from "./memory-list";
import { SearchBox } from "./search-box";
import { useListParams } from "./use-list-params";

/** Home, logged in: Backup Memories, the search box and 'Recent Memories'. */
export function OwnMemories({ userId }: { userId: string }) {
  // Page and search live in the URL (/?page=2&q=beach): they survive Back and reload.
  const { page, search, setPage, setSearch } = useListParams();
  const [backingUp, setBackingUp] = useState(false);
  const memories = useMemories({ page, search, enabled: true });

  const backup = async () => {
    setBackingUp(true);
    try {
      await downloadBackup();
      toast({ title: MESSAGES.backupSuccessful });
    } catch (error) {
      toast({
        title: MESSAGES.backupFailed,
        description: errorMessage(error),
        variant: "destructive",
      });
    } finally {
      setBackingUp(false);
    }
  };

  const searching = search.trim() !== "";
  return (
    <section className="space-y-4" aria-labelledby="recent-memories">
      <div className="flex justify-end">
        <Button variant="outline" onClick={() => void backup()} disabled={backingUp}>
          <Download className="h-4 w-4" aria-hidden="true" />
          {MESSAGES.backupMemories}
        </Button>
      </div>
      <SearchBox value={search} onSearch={setSearch} />
      <h2 id="recent-memories" className="text-xl font-semibold">
        {MESSAGES.recentMemories}
      </h2>
      <MemoryList
        data={memories.data}
        isLoading={memories.isLoading}
        error={memories.error ? MESSAGES.failedFetchMemories : null}
        page={page}
        onPage={setPage}
        isOwner={(memory) => memory.user_id === userId}
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
