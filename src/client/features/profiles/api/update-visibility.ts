import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User, VisibilityBody } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { USER_PATH } from "../../auth/api/get-user";
import { profilePath } from "./get-profile";

export async function updateVisibility(body: VisibilityBody): Promise<User> {
  const res = await apiRequest("POST", "/api/user/visibility", body);
  return (await res.json()) as User;
}

/** Spec 4: the cached user is updated on success. */
export function useUpdateVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVisibility,
    onSuccess: async (user) => {
      queryClient.setQueryData([USER_PATH], user);
      await queryClient.invalidateQueries({ queryKey: [profilePath(user.username)] });
    },
  });
}
