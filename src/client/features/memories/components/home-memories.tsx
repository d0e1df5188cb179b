import { usePrefetchQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { PageLoading } from "../../../components/ui/page-loading";
import { useUser } from "../../auth/api/get-user";
import { ownMemoriesQueryOptions } from "../api/get-memories";
import { useListParams } from "./use-list-params";

// Visitors never see the list, so its code (list, search, paging, backup) is not part of the home
// page's first download; it loads once someone is logged in.
const OwnMemories = lazy(() => import("./own-memories").then((m) => ({ default: m.OwnMemories })));

/** Home, logged in: the memory book, Backup Memories, the search box and 'Recent Memories' (nothing when logged out). */
export function HomeMemories() {
  const { data: user } = useUser();
  if (!user) return null;
  return <LoggedIn />;
}

function LoggedIn() {
  const { page, search } = useListParams();
  // Asks for the list while its code loads, rather than after.
  usePrefetchQuery(ownMemoriesQueryOptions(page, search));
  return (
    <Suspense fallback={<PageLoading />}>
      <OwnMemories />
    </Suspense>
  );
}
