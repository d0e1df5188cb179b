import { useMutation } from "@tanstack/react-query";
import type { ChangePasswordBody } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";

export const CHANGE_PASSWORD_PATH = "/api/user/password";

/** The server ends every other session and gives this browser a fresh cookie: the user is unchanged. */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  await apiRequest("POST", CHANGE_PASSWORD_PATH, body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
