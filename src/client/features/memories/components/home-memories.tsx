import { usePrefetchQuery } from "@tanstack/react-query";
import { useUser } from "../../auth/api/get-user";
import { ownMemoriesQueryOptions } from "../api/get-memories";
import { OwnMemories } from "./own-memories";
import { useListParams } from "./use-list-params";

/** Home, logged in: the memory book, Backup Memories, the search box and 'Recent Memories' (nothing when logged out). */
export function HomeMemories() {
  const { data: user } = useUser();
  if (!user) return null;
  return <LoggedIn userId={user.id} />;
}

function LoggedIn({ userId }: { userId: string }) {
  const { page, search } = useListParams();
  usePrefetchQuery(ownMemoriesQueryOptions(page, search));
  return <OwnMemories userId={userId} />;
}
