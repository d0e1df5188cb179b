import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { MemorySavedEffects } from "../features/memories/processing/memory-saved-effects";
import { trackInAppHistory } from "../lib/in-app-history";
import { RelativeViewProvider } from "../lib/relative-view";
import { UploadQueueProvider } from "../lib/upload-queue-context";
import { AppRouter } from "./router";
import { createUploadQueue } from "./upload-queue";

// The toast area (Radix toast: about 10 kB gzip) shows nothing until something is said, so its code
// is asked for with the first render rather than carried by the first download. A toast raised
// before it arrives waits in the toast store (use-toast.ts) and shows when it does. Not later than
// the first render: a toast is a layer that takes Escape, and one mounted after a dialog opened
// would take the Escape meant for the dialog.
const Toaster = lazy(() =>
  import("../components/ui/toaster").then((m) => ({ default: m.Toaster })),
);

/** The app, over the one query client main.tsx made (and filled with what the page carried). */
export function App({ queryClient }: { queryClient: QueryClient }) {
  const [uploads] = useState(() => createUploadQueue());
  // Recordings kept in the browser from an earlier visit (or a failed upload) are retried.
  useEffect(() => uploads.start(), [uploads]);
  // Back returns to the app's previous screen, or to a fallback when the page was opened from outside.
  useEffect(() => trackInAppHistory(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <UploadQueueProvider queue={uploads}>
        <RelativeViewProvider>
          <AppRouter />
        </RelativeViewProvider>
      </UploadQueueProvider>
      <MemorySavedEffects />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
