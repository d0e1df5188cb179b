import { memoryFacts } from "../../../../shared/memory-facts";
import { MESSAGES } from "../../../../shared/messages";
import { ApiError } from "../../../lib/api-client";
import { useCan } from "../../auth/api/use-can";
import { useProfileMemories } from "../api/get-memories";
import { MemoryList } from "./memory-list";
import { SearchBox } from "./search-box";
import { useListParams } from "./use-list-params";
import { YearNavigator } from "./year-navigator";

/** A profile's shared memories with search, 15 per page, and the edit dialog for the owner. */
export function ProfileMemories({ username, isOwner }: { username: string; isOwner: boolean }) {
  const may = useCan();
  // Page and search live in the URL (/profile/nana?page=2&q=sea): they survive Back and reload.
  const { page, search, setPage, setSearch } = useListParams();
  const memories = useProfileMemories({ username, page, search });
  const notFound = memories.error instanceof ApiError && memories.error.status === 404;
  if (notFound) return null;
  const failed = search.trim()
    ? MESSAGES.failedSearchPublicMemories
    : MESSAGES.failedFetchPublicMemories;
  return (
    <section className="space-y-4 pt-4 text-start" aria-label={MESSAGES.sharedMemories}>
      <SearchBox
        value={search}
        onSearch={setSearch}
        placeholder={isOwner ? MESSAGES.searchPlaceholder : MESSAGES.searchTheseMemories}
      />
      {search.trim() ? null : (
        <YearNavigator
          list={{ username }}
          total={memories.isPlaceholderData ? undefined : memories.data?.total}
        />
      )}
      <MemoryList
        data={memories.data}
        isLoading={memories.isLoading}
        error={memories.error ? failed : null}
        page={page}
        onPage={setPage}
        isOwner={(memory) => may("memory.edit", memoryFacts(memory))}
        search={search}
        empty={search.trim() ? <p>{MESSAGES.noMemoriesFound}</p> : <p>{MESSAGES.profileEmpty}</p>}
      />
    </section>
  );
}
