import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { SESSION_USER_SCRIPT_ID } from "../../../../shared/constants";
import { type User, userSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";

export const USER_PATH = "/api/user";

export const userKeys = { session: ["user"] as const };

/**
 * The user the server embedded in the page it served (null when logged out), or undefined when the
 * page holds none (then GET /api/user is asked).
 */
export function embeddedSessionUser(): User | null | undefined {
  const text = document.getElementById(SESSION_USER_SCRIPT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GET /api/user: the current user, null when logged out (401); cached indefinitely (spec 7). */
export const userQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.session,
    queryFn: () => getJson(USER_PATH, userSchema, { on401: "returnNull" }),
    initialData: embeddedSessionUser,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export function useUser() {
  return useQuery(userQueryOptions());
}

/**
 * Spec 4: login, register and logout refetch the user. Everything else cached was fetched as
 * someone else, so it is marked stale (refetched when next shown).
 */
export async function refreshSession(queryClient: QueryClient): Promise<void> {
  await queryClient.refetchQueries({ queryKey: userKeys.session });
  await queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] !== userKeys.session[0],
    refetchType: "none",
  });
}
