import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RegisterBody, User } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function register(body: RegisterBody): Promise<User> {
  const res = await apiRequest("POST", "/api/register", body);
  return (await res.json()) as User;
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => refreshSession(queryClient),
  });
}
