import { queryOptions, useQuery } from "@tanstack/react-query";
import type { JournalRole } from "../../../../shared/journals";
import { type Member, memberListSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { journalKeys, membersUrl } from "./journal-keys";

/** GET /api/journals/{id}/members: everyone in a journal (emails for organizers only). */
export const membersQueryOptions = (journalId: string) =>
  queryOptions({
    queryKey: journalKeys.members(journalId),
    queryFn: () => getJson(membersUrl(journalId), memberListSchema),
  });

/** A journal's members; nothing is asked without a journal. */
export function useMembers(journalId: string | undefined) {
  return useQuery({ ...membersQueryOptions(journalId ?? ""), enabled: Boolean(journalId) });
}

const TELLING_ROLES: readonly JournalRole[] = ["organizer", "storyteller"];

/** The members who may tell stories: those a list can be narrowed to. */
export function tellersOf(members: readonly Member[] | undefined): Member[] {
  return (members ?? []).filter((member) => TELLING_ROLES.includes(member.role));
}
