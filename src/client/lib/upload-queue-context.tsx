import { createContext, type ReactNode, useContext, useSyncExternalStore } from "react";
import type { PendingSummary, UploadQueue } from "./upload-queue";

const UploadQueueContext = createContext<UploadQueue | null>(null);

/** Gives the features the app's one upload queue (made in app.tsx, or by a test). */
export function UploadQueueProvider({
  queue,
  children,
}: {
  queue: UploadQueue;
  children: ReactNode;
}) {
  return <UploadQueueContext.Provider value={queue}>{children}</UploadQueueContext.Provider>;
}

export function useUploadQueue(): UploadQueue {
  const queue = useContext(UploadQueueContext);
  if (!queue) throw new Error("useUploadQueue needs an UploadQueueProvider (app.tsx)");
  return queue;
}

/** Recordings kept in this browser that are not finished yet; re-renders as they change. */
export function usePendingRecordings(): PendingSummary[] {
  const queue = useUploadQueue();
  return useSyncExternalStore(queue.subscribe, queue.pending, queue.pending);
}
