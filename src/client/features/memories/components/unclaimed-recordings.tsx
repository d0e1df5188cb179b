import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { useUser } from "../../auth/api/get-user";
import { unclaimedQueryOptions } from "../api/get-unclaimed";

// Loaded only when this browser has such recordings, keeping the home page's first download small.
const UnclaimedList = lazy(() =>
  import("./unclaimed-list").then((m) => ({ default: m.UnclaimedList })),
);

/**
 * Home: what this browser recorded without an account and can still save to one (processing,
 * saved or failed), so a dismissed save-account dialog never strands a recording.
 */
export function UnclaimedRecordings() {
  const { isLoading: sessionLoading } = useUser();
  // The list itself polls while one is processing (useUnclaimedMemories).
  const unclaimed = useQuery(unclaimedQueryOptions());
  if (sessionLoading || !unclaimed.data?.items.length) return null;
  return (
    <Suspense fallback={null}>
      <UnclaimedList />
    </Suspense>
  );
}
