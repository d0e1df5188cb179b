import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type UpdateAccountBody, type User, userSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { USER_PATH, userKeys } from "../../auth/api/get-user";
import { profileKeys } from "../../profiles/api/get-profile";

export async function updateAccount(body: UpdateAccountBody): Promise<User> {
  return requestJson("PATCH", USER_PATH, userSchema, body);
}

/** Display name and email; the cached user (top bar, menus) and profile follow at once. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: async (user) => {
      queryClient.setQueryData(userKeys.session, user);
      await queryClient.invalidateQueries({ queryKey: profileKeys.detail(user.username) });
    },
  });
}
