import { useCallback, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import { ApiError } from "../../../lib/api-client";
import { useUser } from "../../auth/api/get-user";
import { useProfileMemories } from "../api/get-memories";
import { MemoryList } from "./memory-list";
import { SearchBox } from "./search-box";

/** A profile's shared memories with search, 15 per page, and the edit dialog for the owner. */
export function ProfileMemories({ username }: { username: string }) {
  const { data: user } = useUser();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const memories = useProfileMemories({ username, page, search });
  const onSearch = useCallback((text: string) => {
    setSearch((previous) => {
      if (previous.trim() !== text.trim()) setPage(1);
      return text;
    });
  }, []);
  const notFound = memories.error instanceof ApiError && memories.error.status === 404;
  if (notFound) return null;
  const failed = search.trim()
    ? MESSAGES.failedSearchPublicMemories
    : MESSAGES.failedFetchPublicMemories;
  return (
    <section className="space-y-4 pt-4 text-left" aria-label="Shared memories">
      <SearchBox onSearch={onSearch} />
      <MemoryList
        data={memories.data}
        isLoading={memories.isLoading}
        error={memories.error ? failed : null}
        page={page}
        onPage={setPage}
        isOwner={(memory) => Boolean(user) && memory.user_id === user?.id}
        empty={search.trim() ? <p>{MESSAGES.noMemoriesFound}</p> : <p>{MESSAGES.profileEmpty}</p>}
      />
    </section>
  );
}
