import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RegisterBody, type User, userSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function register(body: RegisterBody): Promise<User> {
  return requestJson("POST", "/api/register", userSchema, body);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => refreshSession(queryClient),
  });
}
