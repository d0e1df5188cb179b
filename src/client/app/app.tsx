import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
// Registers the finisher of spoken comments (at module load, before the pending processor starts).
import "../features/comments/comment-finisher";
// Registers the 'memory' finisher (server processing with progress) at load.
import "../features/memories/processing/memory-finisher";
import { MemorySavedEffects } from "../features/memories/processing/memory-saved-effects";
import { startPendingProcessor } from "../features/recorder/pending-uploads";
import { firstPaint } from "../lib/after-paint";
import { createQueryClient } from "../lib/query-client";
import { AppRouter } from "./router";

// The toast area's code (Radix toast with its focus and swipe handling: about 35 kB) is asked for
// once the first screen is painted. A toast raised before it arrives waits in use-toast's list and
// shows when it does.
const Toaster = lazy(() =>
  firstPaint()
    .then(() => import("../components/ui/toaster"))
    .then((m) => ({ default: m.Toaster })),
);

export function App() {
  const [queryClient] = useState(createQueryClient);
  // Recordings kept in the browser from an earlier visit (or a failed upload) are retried.
  // Finishers must be registered by modules imported above, before this effect runs.
  useEffect(() => startPendingProcessor(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRouter />
      <MemorySavedEffects />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
