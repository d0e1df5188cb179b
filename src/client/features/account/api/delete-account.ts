import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DeleteAccountBody } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { refreshSession, USER_PATH } from "../../auth/api/get-user";

export async function deleteAccount(body: DeleteAccountBody): Promise<void> {
  await apiRequest("DELETE", USER_PATH, body);
}

/** After the account is gone the session is too: the user is refetched (logged out). */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => refreshSession(queryClient),
  });
}
