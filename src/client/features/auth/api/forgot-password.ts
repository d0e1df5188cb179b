import { useMutation } from "@tanstack/react-query";
import type { ForgotPasswordBody } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";

export async function forgotPassword(body: ForgotPasswordBody): Promise<void> {
  await apiRequest("POST", "/api/forgot-password", body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
