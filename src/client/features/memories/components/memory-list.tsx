import { Pencil } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { Link } from "wouter";
import { formatMessage } from "../../../../shared/i18n/format";
import { editMemoryNamed, MESSAGES, messageFor } from "../../../../shared/messages";
import { isEditable } from "../../../../shared/rules";
import type { Memory, MemoryPage } from "../../../../shared/schemas";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { PageLoading } from "../../../components/ui/page-loading";
import { formatRecordedAt } from "../../../lib/format-date";
import { PhotoCover } from "../../photos/components/photo-cover";
import { stageNotice } from "../processing/processing-api";
import { FailedMemoryActions } from "./failed-memory-actions";
import { PageButtons } from "./page-buttons";
import { PlayInPlaceButton } from "./play-in-place";
import { ToldBy } from "./told-by";

const EditMemoryDialog = lazy(() =>
  import("./edit-memory-dialog").then((m) => ({ default: m.EditMemoryDialog })),
);

export function MemoryStateBadge({ memory }: { memory: Memory }) {
  if (memory.status === "processing") {
    return (
      <Badge className="bg-amber-100 text-amber-900">
        {memory.stage
          ? formatMessage(MESSAGES.processingStage, { stage: stageNotice(memory.stage) })
          : MESSAGES.processingBadge}
      </Badge>
    );
  }
  if (memory.status === "failed") {
    return <Badge className="bg-red-100 text-red-900">{MESSAGES.processingFailed}</Badge>;
  }
  return null;
}

/** Why a failed memory failed, in the catalogue's words; nothing when the badge already says it. */
export function FailureReason({ memory }: { memory: Memory }) {
  if (memory.status !== "failed" || !memory.error) return null;
  const reason = messageFor(memory.error, "processing.failed");
  if (reason === MESSAGES.processingFailed) return null;
  return <span className="block text-sm text-slate-700">{reason}</span>;
}

/** One page of memories: links with title, recorded date and tags; edit button for the owner. */
export function MemoryList({
  data,
  isLoading,
  error,
  page,
  onPage,
  isOwner,
  showStoryteller = false,
  empty,
  search = "",
}: {
  data: MemoryPage | undefined;
  isLoading: boolean;
  error: string | null;
  page: number;
  onPage: (page: number) => void;
  isOwner: (memory: Memory) => boolean;
  /** Each card says who told it (a family's journal). */
  showStoryteller?: boolean;
  empty: React.ReactNode;
  /** The search these are results of: a memory opens at the first sentence that matched. */
  search?: string;
}) {
  const [editing, setEditing] = useState<Memory | null>(null);
  // The dialog unmounts as it closes, so focus goes back to its edit button by hand.
  const editButton = useRef<HTMLButtonElement | null>(null);
  const top = useRef<HTMLDivElement>(null);
  // Another page starts at the top of the list, not at the page buttons below it.
  const goToPage = (next: number) => {
    onPage(next);
    top.current?.scrollIntoView?.({ block: "start" });
  };
  // Full height while loading, so the footer does not jump when the list arrives.
  if (isLoading && !data) return <PageLoading />;
  if (error) return <p className="text-red-800">{error}</p>;
  if (!data || data.items.length === 0) return <div className="text-center">{empty}</div>;
  return (
    <div className="scroll-mt-4 space-y-4" ref={top} data-testid="memory-list">
      <ul className="space-y-3" aria-label={MESSAGES.memories}>
        {data.items.map((memory) => (
          <li
            key={memory.id}
            data-memory-year={memory.recordedAt.slice(0, 4)}
            className="flex flex-wrap items-start gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          >
            {memory.status === "saved" && memory.audioUrl ? (
              <PlayInPlaceButton src={memory.audioUrl} title={memory.title} />
            ) : null}
            <PhotoCover photo={memory.photos[0]} />
            <Link
              href={`/memory/${memory.id}${search.trim() ? `?q=${encodeURIComponent(search.trim())}` : ""}`}
              className="min-w-0 flex-1 space-y-1"
            >
              <span
                className="line-clamp-2 font-semibold break-words text-slate-900 hover:underline"
                dir="auto"
              >
                {memory.title || MESSAGES.untitledMemory}
              </span>
              <span className="block text-sm text-slate-700">
                {formatRecordedAt(memory.recordedAt)}
              </span>
              {showStoryteller ? <ToldBy memory={memory} /> : null}
              <span className="flex flex-wrap gap-1">
                <MemoryStateBadge memory={memory} />
                {memory.tags.map((tag) => (
                  <Badge key={tag}>{tag}</Badge>
                ))}
              </span>
              <FailureReason memory={memory} />
            </Link>
            {isOwner(memory) && memory.status === "failed" ? (
              <FailedMemoryActions memory={memory} />
            ) : null}
            {isOwner(memory) && isEditable(memory) ? (
              <Button
                variant="ghost"
                size="icon"
                aria-label={editMemoryNamed(memory.title)}
                onClick={(event) => {
                  editButton.current = event.currentTarget;
                  setEditing(memory);
                }}
              >
                <Pencil className="h-4 w-4" aria-hidden="true" />
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <PageButtons total={data.total} page={page} onPage={goToPage} />
      {editing ? (
        <Suspense fallback={null}>
          <EditMemoryDialog
            memory={editing}
            open
            onOpenChange={(open) => {
              if (open) return;
              setEditing(null);
              const button = editButton.current;
              setTimeout(() => {
                if (button?.isConnected) button.focus();
              }, 0);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
