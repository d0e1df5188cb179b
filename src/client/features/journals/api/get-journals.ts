import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Membership } from "../../../../shared/authorization";
import { type Journal, journalListSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { useUser } from "../../auth/api/get-user";
import { JOURNALS_PATH, journalKeys } from "./journal-keys";

/** GET /api/journals: the logged-in user's journals, their own first. */
export const journalsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: journalKeys.mine(userId),
    queryFn: () => getJson(JOURNALS_PATH, journalListSchema),
  });

/** The logged-in user's journals; nothing is asked while logged out. */
export function useJournals() {
  const { data: user } = useUser();
  return useQuery({ ...journalsQueryOptions(user?.id ?? ""), enabled: Boolean(user) });
}

/** What the authorization rules read of the user's journals. */
export function membershipsOf(journals: readonly Journal[] | undefined): Membership[] {
  return (journals ?? []).map(({ id, memberId, role }) => ({ journalId: id, memberId, role }));
}
