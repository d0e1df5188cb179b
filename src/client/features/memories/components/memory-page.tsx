import { Pencil, Trash2 } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { memoryFacts } from "../../../../shared/memory-facts";
import { MESSAGES, messageFor } from "../../../../shared/messages";
import { isEditable } from "../../../../shared/rules";
import { AudioPlayer } from "../../../components/audio-player";
import { NotFound } from "../../../components/not-found";
import { Button } from "../../../components/ui/button";
import { PageLoading } from "../../../components/ui/page-loading";
import { toast } from "../../../components/ui/use-toast";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { formatRecordedAt } from "../../../lib/format-date";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useCan } from "../../auth/api/use-can";
import { NewRepliesMark } from "../../comments/components/new-replies-mark";
import { useJournals } from "../../journals/api/get-journals";
import { MemoryPhotos } from "../../photos/components/memory-photos";
import { captionsUrl, useTranscript } from "../../transcripts/api/transcript";
import { BetterTranscript } from "../../transcripts/components/better-transcript";
import { FollowAlong } from "../../transcripts/components/follow-along";
import { useDeleteMemory } from "../api/delete-memory";
import { useMemory } from "../api/get-memory";
import { useMemoryOwner } from "../api/get-memory-owner";
import { MemoryStateBadge } from "./memory-list";
import { MemoryOwnerLink, ownerProfilePath } from "./memory-owner";
import { MemoryScores } from "./memory-scores";
import { MemoryTagsCard } from "./memory-tags-card";
import { BackButton, MemoryHeading, MemoryTextCards } from "./memory-text";
import { RegenerateButton } from "./regenerate-button";
import { RetryButton } from "./retry-button";
import { ToldBy, useShowsStoryteller } from "./told-by";

const DeleteMemoryDialog = lazy(() =>
  import("./delete-memory-dialog").then((m) => ({ default: m.DeleteMemoryDialog })),
);

const EditMemoryDialog = lazy(() =>
  import("./edit-memory-dialog").then((m) => ({ default: m.EditMemoryDialog })),
);

const NO_SEGMENTS: never[] = [];

/**
 * /memory/{id}: audio, transcript, summary, scores, tags, and the comments card's place, which
 * app/ fills (`comments`): features do not import each other.
 */
export function MemoryPage({
  id,
  comments,
}: {
  id: string;
  comments?: (memoryId: string, isOwner: boolean) => ReactNode;
}) {
  const [, navigate] = useLocation();
  const may = useCan();
  const memory = useMemory(id);
  const journals = useJournals();
  const owner = useMemoryOwner(id).data?.owner;
  const remove = useDeleteMemory();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // The transcript follows the player's audio element and seeks it (ADR 0041).
  const audio = useRef<HTMLAudioElement>(null);
  const timed = useTranscript(id, memory.data?.status === "saved");
  const showsStoryteller = useShowsStoryteller(memory.data);
  // Opened from a search (?q=...): the transcript starts at the first sentence that matched.
  const search = new URLSearchParams(useSearch()).get("q") ?? "";

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again when another memory opens
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [id]);

  const missing = memory.error instanceof ApiError && memory.error.status === 404;
  useDocumentTitle(
    memory.data
      ? memory.data.title || MESSAGES.untitledMemory
      : memory.isLoading
        ? MESSAGES.loading
        : missing
          ? MESSAGES.pageNotFoundTitle
          : MESSAGES.failedFetchMemory,
  );

  // Who may change it is known with the reader's journals: wait for them, so the controls come
  // with the page rather than after it.
  if (memory.isLoading || journals.isLoading) return <PageLoading />;
  if (memory.error || !memory.data) {
    // Gone, private or never there: the app's one 404 layout.
    if (missing) return <NotFound />;
    return <NotFound message={MESSAGES.failedFetchMemory} title={MESSAGES.failedFetchMemory} />;
  }
  const data = memory.data;
  const facts = memoryFacts(data);
  const isOwner = may("memory.edit", facts);

  const onDelete = async () => {
    try {
      await remove.mutateAsync(data.id);
      setConfirming(false);
      toast({ title: MESSAGES.memoryDeleted });
      navigate("/");
    } catch (error) {
      toast({
        title: MESSAGES.failedDeleteMemory,
        description: errorMessage(error),
        variant: "destructive",
      });
    }
  };

  return (
    <article className="space-y-6">
      <div className="flex items-center justify-between gap-2">
        <BackButton fallback={owner ? ownerProfilePath(owner) : "/"} />
        <MemoryOwnerLink owner={owner} />
        {isOwner || may("memory.delete", facts) ? (
          <div className="flex shrink-0 gap-1">
            {/* Edited once processing has made the words (ADR 0011). */}
            {isOwner && isEditable(data) ? (
              <Button
                ref={editButton}
                variant="ghost"
                size="icon"
                aria-label={MESSAGES.editMemoryLabel}
                onClick={() => setEditing(true)}
              >
                <Pencil className="h-5 w-5" aria-hidden="true" />
              </Button>
            ) : null}
            <Button
              variant="ghost"
              size="icon"
              aria-label={MESSAGES.deleteMemoryLabel}
              onClick={() => setConfirming(true)}
            >
              <Trash2 className="h-5 w-5 text-red-700" aria-hidden="true" />
            </Button>
          </div>
        ) : null}
      </div>
      <header className="space-y-3">
        <MemoryHeading memory={data} />
        {showsStoryteller ? <ToldBy memory={data} /> : null}
        <NewRepliesMark memory={data} markSeen />
        <MemoryStateBadge memory={data} />
        {data.status === "failed" && data.error ? (
          <p className="text-red-800">{messageFor(data.error, "processing.failed")}</p>
        ) : null}
        {data.status === "failed" && may("memory.retry", facts) ? (
          <RetryButton memory={data} />
        ) : null}
        {/* Mounted while it runs (the memory is processing then), so its notices stay on screen;
            nothing to regenerate from without a transcript. */}
        {isOwner && data.transcript.trim() ? <RegenerateButton memory={data} /> : null}
        {isOwner ? <BetterTranscript memory={data} /> : null}
      </header>
      {/* A child of the article, so it stays on screen while it plays; the transcript follows it
          before the photos, for reading along on a phone. */}
      <AudioPlayer
        src={data.audioUrl}
        caption={formatRecordedAt(data.recordedAt)}
        durationHint={data.duration}
        audioRef={audio}
        stickyWhilePlaying
        captions={
          timed.data?.segments.length
            ? { src: captionsUrl(data.id), language: data.language }
            : undefined
        }
      />
      <MemoryTextCards
        memory={data}
        transcript={
          <FollowAlong
            transcript={data.transcript}
            segments={timed.data?.segments ?? NO_SEGMENTS}
            audio={audio}
            search={search}
          />
        }
      />
      <MemoryPhotos memoryId={data.id} photos={data.photos} isOwner={isOwner} />
      {/* The scores are for those who may edit the memory, never for relatives reading it. */}
      {isOwner && <MemoryScores scores={data.scores} />}
      {/* Tags are edited once processing has made them (ADR 0011). */}
      <MemoryTagsCard memory={data} isOwner={isOwner && isEditable(data)} />
      {comments?.(data.id, isOwner)}
      {editing ? (
        <Suspense fallback={null}>
          <EditMemoryDialog
            memory={data}
            open
            onOpenChange={(open) => {
              if (open) return;
              setEditing(false);
              // The dialog unmounts as it closes, so focus goes back to Edit by hand.
              setTimeout(() => editButton.current?.focus(), 0);
            }}
          />
        </Suspense>
      ) : null}
      {confirming ? (
        <Suspense fallback={null}>
          <DeleteMemoryDialog
            open={confirming}
            onOpenChange={setConfirming}
            onConfirm={() => void onDelete()}
            pending={remove.isPending}
          />
        </Suspense>
      ) : null}
    </article>
  );
}
