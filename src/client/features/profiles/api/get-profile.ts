import { queryOptions, useQuery } from "@tanstack/react-query";
import { publicProfileSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";

export const profilePath = (username: string) => `/api/users/${encodeURIComponent(username)}`;

export const profileKeys = { detail: (username: string) => ["profiles", username] as const };

/** GET /api/users/{username}: fails with a 404 ApiError when missing or private. */
export const profileQueryOptions = (username: string) =>
  queryOptions({
    queryKey: profileKeys.detail(username),
    queryFn: () => getJson(profilePath(username), publicProfileSchema),
  });

export function useProfile(username: string) {
  return useQuery(profileQueryOptions(username));
}
