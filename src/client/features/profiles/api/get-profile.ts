import { useQuery } from "@tanstack/react-query";
import type { PublicProfile } from "../../../../shared/schemas";

export const profilePath = (username: string) => `/api/users/${encodeURIComponent(username)}`;

/** A profile by username; the query fails with a 404 ApiError when missing or private. */
export function useProfile(username: string) {
  return useQuery<PublicProfile>({ queryKey: [profilePath(username)] });
}
