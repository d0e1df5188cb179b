import { lazy, Suspense } from "react";
import { usePendingRecordings } from "../../../lib/upload-queue-context";

// Loaded only when a recording waits, keeping the home page's first download small.
const PendingRecordingsList = lazy(() =>
  import("./pending-recordings-list").then((m) => ({ default: m.PendingRecordingsList })),
);

/**
 * Recordings kept in this browser whose upload (or a later step) failed, with Retry. They are also
 * retried automatically with backoff and on the next visit; ones the server refused wait here.
 */
export function PendingRecordings() {
  const waiting = usePendingRecordings().some((item) => item.attempts > 0 || item.stuck);
  if (!waiting) return null;
  return (
    <Suspense fallback={null}>
      <PendingRecordingsList />
    </Suspense>
  );
}
