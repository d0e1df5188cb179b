import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type LoginBody, type User, userSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function login(body: LoginBody): Promise<User> {
  return requestJson("POST", "/api/login", userSchema, body);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => refreshSession(queryClient),
  });
}
