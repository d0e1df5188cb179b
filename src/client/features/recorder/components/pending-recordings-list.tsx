import { CloudUpload } from "lucide-react";
import { useState } from "react";
import { MESSAGES, pendingRecordingsLabel } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { formatRecordedAt } from "../../../lib/format-date";
import type { PendingSummary } from "../../../lib/upload-queue";
import { usePendingRecordings, useUploadQueue } from "../../../lib/upload-queue-context";

const needsAttention = (item: PendingSummary) => item.attempts > 0 || item.stuck;

/** The home page's list of kept recordings that need attention (see PendingRecordings). */
export function PendingRecordingsList() {
  const queue = useUploadQueue();
  const pending = usePendingRecordings().filter(needsAttention);
  const [busy, setBusy] = useState(false);
  if (pending.length === 0) return null;
  const anyInFlight = pending.some((item) => item.inFlight);

  return (
    <section
      aria-label={MESSAGES.recordingsWaiting}
      data-testid="pending-recordings"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <div className="flex flex-wrap items-center gap-3">
        <CloudUpload className="h-5 w-5" aria-hidden="true" />
        <p className="flex-1">{pendingRecordingsLabel(pending.length)}</p>
        <Button
          size="sm"
          variant="outline"
          disabled={busy || anyInFlight}
          onClick={async () => {
            setBusy(true);
            try {
              await queue.retry();
            } finally {
              setBusy(false);
            }
          }}
        >
          {MESSAGES.retry}
        </Button>
      </div>
      {pending
        .filter((item) => item.stuck)
        .map((item) => (
          <div key={item.id} className="flex flex-wrap items-center gap-3">
            <p className="min-w-0 flex-1">
              {formatRecordedAt(item.recordedAt)}: {item.lastError || MESSAGES.failedUploadAudio}
            </p>
            <Button size="sm" variant="ghost" onClick={() => void queue.discard(item.id)}>
              {MESSAGES.discard}
            </Button>
          </div>
        ))}
    </section>
  );
}
