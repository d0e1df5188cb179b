import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Toaster } from "../components/ui/toaster";
import { MemorySavedEffects } from "../features/memories/processing/memory-saved-effects";
import { trackInAppHistory } from "../lib/in-app-history";
import { RelativeViewProvider } from "../lib/relative-view";
import { UploadQueueProvider } from "../lib/upload-queue-context";
import { AppRouter } from "./router";
import { createUploadQueue } from "./upload-queue";

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
      <Toaster />
    </QueryClientProvider>
  );
}
