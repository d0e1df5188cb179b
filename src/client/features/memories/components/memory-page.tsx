import { Trash2 } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import { isEditable } from "../../../../shared/rules";
import { NotFound } from "../../../components/not-found";
import { Button } from "../../../components/ui/button";
import { PageLoading } from "../../../components/ui/page-loading";
import { toast } from "../../../components/ui/use-toast";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useUser } from "../../auth/api/get-user";
import { CommentsCard } from "../../comments/components/comments-card";
import { useDeleteMemory } from "../api/delete-memory";
import { useMemory } from "../api/get-memory";
import { formatRecordedAt } from "../utils/date-time";
import { AudioPlayer } from "./audio-player";
import { MemoryStateBadge } from "./memory-list";
import { MemoryScores } from "./memory-scores";
import { MemoryTagsCard } from "./memory-tags-card";
import { BackButton, MemoryHeading, MemoryTextCards } from "./memory-text";
import { RegenerateButton } from "./regenerate-button";
import { RetryButton } from "./retry-button";

const DeleteMemoryDialog = lazy(() =>
  import("./delete-memory-dialog").then((m) => ({ default: m.DeleteMemoryDialog })),
);

/** /memory/{id}: audio, transcript, summary, scores, tags, and the comments card's place. */
export function MemoryPage({ id }: { id: string }) {
  const [, navigate] = useLocation();
  const { data: user } = useUser();
  const memory = useMemory(id);
  const remove = useDeleteMemory();
  const [confirming, setConfirming] = useState(false);

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

  if (memory.isLoading) return <PageLoading />;
  if (memory.error || !memory.data) {
    // Gone, private or never there: the app's one 404 layout.
    if (missing) return <NotFound />;
    return <NotFound message={MESSAGES.failedFetchMemory} title={MESSAGES.failedFetchMemory} />;
  }
  const data = memory.data;
  const isOwner = Boolean(user) && data.user_id === user?.id;

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
      <div className="flex items-center justify-between">
        <BackButton />
        {isOwner ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Delete memory"
            onClick={() => setConfirming(true)}
          >
            <Trash2 className="h-5 w-5 text-red-700" aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      <header className="space-y-3">
        <MemoryHeading memory={data} />
        <MemoryStateBadge memory={data} />
        {data.status === "failed" && data.error ? (
          <p className="text-red-800">{data.error}</p>
        ) : null}
        {data.status === "failed" && isOwner ? <RetryButton memory={data} /> : null}
        {/* Mounted while it runs (the memory is processing then), so its notices stay on screen;
            nothing to regenerate from without a transcript. */}
        {isOwner && data.transcript.trim() ? <RegenerateButton memory={data} /> : null}
        <AudioPlayer
          src={data.audioUrl}
          caption={formatRecordedAt(data.recordedAt)}
          durationHint={data.duration}
        />
      </header>
      <MemoryTextCards memory={data} />
      <MemoryScores scores={data.scores} />
      {/* Tags are edited once processing has made them (ADR 0011). */}
      <MemoryTagsCard memory={data} isOwner={isOwner && isEditable(data)} />
      <CommentsCard memoryId={data.id} isOwner={isOwner} />
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
