import { useQuery } from "@tanstack/react-query";
import { memoryFacts } from "../../../../shared/memory-facts";
import { PageLoading } from "../../../components/ui/page-loading";
import { useCan } from "../../auth/api/use-can";
import { NewRepliesMark } from "../../comments/components/new-replies-mark";
import { useJournals } from "../../journals/api/get-journals";
import { memoryQueryOptions } from "../api/get-memory";
import { memoryOwnerQueryOptions } from "../api/get-memory-owner";
import { MemoryOwnerLink, ownerProfilePath } from "./memory-owner";
import { BackButton, MemoryHeading, MemoryTextCards } from "./memory-text";
import { ToldBy, useShowsStoryteller } from "./told-by";

/**
 * The height of the memory page's audio player (audio-player.tsx: a caption line over a 44 px seek
 * bar), kept free in the preview so the cards below it do not move when the player arrives.
 */
const PLAYER_PLACE = "h-16";

/**
 * What a memory's page shows while its own code loads (ADR 0035): when the page carried the memory
 * (ADR 0031) and the reader is a visitor of a saved memory (a shared link, a memory book's QR code),
 * its title and words at once, laid out as the page lays them out; otherwise the loading spinner.
 * The page replaces it with the player, scores, tags and comments.
 */
export function MemoryPreview({ id }: { id: string }) {
  const may = useCan();
  const { data: memory } = useQuery(memoryQueryOptions(id));
  const owner = useQuery(memoryOwnerQueryOptions(id)).data?.owner;
  // The owner's page has more above the words (delete, regenerate): a preview would jump.
  const showsStoryteller = useShowsStoryteller(memory);
  // Until the reader's journals are known, they may be one who edits it.
  const readerKnown = !useJournals().isLoading;
  if (memory?.status !== "saved" || !readerKnown || may("memory.edit", memoryFacts(memory))) {
    return <PageLoading />;
  }
  return (
    // As tall as the screen, as PageLoading is: the footer starts below the fold, and the page
    // arriving (longer than its preview) pushes nothing the reader can see.
    <article className="min-h-screen space-y-6" aria-busy="true" data-testid="memory-preview">
      <div className="flex items-center justify-between gap-2">
        <BackButton fallback={owner ? ownerProfilePath(owner) : "/"} />
        <MemoryOwnerLink owner={owner} />
      </div>
      <header className="space-y-3">
        <MemoryHeading memory={memory} />
        {showsStoryteller ? <ToldBy memory={memory} /> : null}
        <NewRepliesMark memory={memory} />
      </header>
      {/* The player's place: a child of the article, as on the page (it stays on screen there). */}
      <div className={PLAYER_PLACE} aria-hidden="true" />
      <MemoryTextCards memory={memory} />
    </article>
  );
}
