import { usePrefetchQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { PageLoading } from "../../../components/ui/page-loading";
import { useAfterFirstPaint } from "../../../lib/after-paint";
import { useUser } from "../../auth/api/get-user";
import { memoriesListUrl } from "../api/memory-keys";
import { warmDateFormat } from "../utils/warm-date-format";
import { useListParams } from "./use-list-params";

// Visitors never see the list, so its code (list, search, paging, backup) is not part of the home
// page's first download; it loads once someone is logged in. Its dates' formatter is built in a
// worker meanwhile, so the list's first render does not load the locale data itself.
const OwnMemories = lazy(() =>
  Promise.all([import("./own-memories"), warmDateFormat()]).then(([m]) => ({
    default: m.OwnMemories,
  })),
);

/** Home, logged in: the memory book, Backup Memories, the search box and 'Recent Memories' (nothing when logged out). */
export function HomeMemories() {
  const { data: user } = useUser();
  // Below the recorder: its code and data are asked for once the first screen is painted.
  const painted = useAfterFirstPaint();
  if (!user) return null;
  if (!painted) return <PageLoading />;
  return <LoggedIn userId={user.id} />;
}

function LoggedIn({ userId }: { userId: string }) {
  const { page, search } = useListParams();
  // Asks for the list while its code loads, rather than after.
  usePrefetchQuery({ queryKey: [memoriesListUrl(page, search)] });
  return (
    <Suspense fallback={<PageLoading />}>
      <OwnMemories userId={userId} />
    </Suspense>
  );
}
