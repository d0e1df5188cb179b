import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateAccountBody, User } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { USER_PATH } from "../../auth/api/get-user";
import { profilePath } from "../../profiles/api/get-profile";

export async function updateAccount(body: UpdateAccountBody): Promise<User> {
  const res = await apiRequest("PATCH", USER_PATH, body);
  return (await res.json()) as User;
}

/** Display name and email; the cached user (top bar, menus) and profile follow at once. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: async (user) => {
      queryClient.setQueryData([USER_PATH], user);
      await queryClient.invalidateQueries({ queryKey: [profilePath(user.username)] });
    },
  });
}
