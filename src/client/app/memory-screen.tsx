import { CommentsCard } from "../features/comments/components/comments-card";
import { MemoryPage } from "../features/memories/components/memory-page";

/** A memory's page with its comments: the two features meet here, not in each other. */
export function MemoryScreen({ id }: { id: string }) {
  return (
    <MemoryPage
      id={id}
      comments={(memoryId, isOwner) => <CommentsCard memoryId={memoryId} isOwner={isOwner} />}
    />
  );
}
