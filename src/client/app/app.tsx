import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Toaster } from "../components/ui/toaster";
// Registers the finisher of spoken comments (at module load, before the pending processor starts).
import "../features/comments/comment-finisher";
// Registers the 'memory' finisher (server processing with progress) at load.
import "../features/memories/processing/memory-finisher";
import { MemorySavedEffects } from "../features/memories/processing/memory-saved-effects";
import { startPendingProcessor } from "../features/recorder/pending-uploads";
import { createQueryClient } from "../lib/query-client";
import { AppRouter } from "./router";

export function App() {
  const [queryClient] = useState(createQueryClient);
  // Recordings kept in the browser from an earlier visit (or a failed upload) are retried.
  // Finishers must be registered by modules imported above, before this effect runs.
  useEffect(() => startPendingProcessor(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRouter />
      <MemorySavedEffects />
      <Toaster />
    </QueryClientProvider>
  );
}
