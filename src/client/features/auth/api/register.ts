import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RegisterBody, User } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function register(body: RegisterBody): Promise<User> {
  return requestJson("POST", "/api/register", (r) => r.userResponse, body);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => refreshSession(queryClient),
  });
}
