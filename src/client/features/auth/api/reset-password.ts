import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ResetPasswordBody } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function resetPassword(body: ResetPasswordBody): Promise<void> {
  await apiRequest("POST", "/api/reset-password", body);
}

/** A reset ends every session of the account, so the user is refetched (logged out). */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => refreshSession(queryClient),
  });
}
