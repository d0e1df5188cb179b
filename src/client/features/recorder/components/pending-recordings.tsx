import { usePendingRecordings } from "../../../lib/upload-queue-context";
import { PendingRecordingsList } from "./pending-recordings-list";

/**
 * Recordings kept in this browser whose upload (or a later step) failed, with Retry. They are also
 * retried automatically with backoff and on the next visit; ones the server refused wait here.
 */
export function PendingRecordings() {
  const waiting = usePendingRecordings().some((item) => item.attempts > 0 || item.stuck);
  if (!waiting) return null;
  return <PendingRecordingsList />;
}
