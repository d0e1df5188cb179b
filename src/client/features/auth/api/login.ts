import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoginBody, User } from "../../../../shared/schemas";
import { apiRequest } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function login(body: LoginBody): Promise<User> {
  const res = await apiRequest("POST", "/api/login", body);
  return (await res.json()) as User;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => refreshSession(queryClient),
  });
}
