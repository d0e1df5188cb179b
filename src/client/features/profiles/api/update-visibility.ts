import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type User, userSchema, type VisibilityBody } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { userKeys } from "../../auth/api/get-user";
import { profileKeys } from "./get-profile";

export async function updateVisibility(body: VisibilityBody): Promise<User> {
  return requestJson("POST", "/api/user/visibility", userSchema, body);
}

/** Spec 4: the cached user is updated on success. */
export function useUpdateVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVisibility,
    onSuccess: async (user) => {
      queryClient.setQueryData(userKeys.session, user);
      await queryClient.invalidateQueries({ queryKey: profileKeys.detail(user.username) });
    },
  });
}
