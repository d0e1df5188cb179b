import { useMutation, useQueryClient } from "@tanstack/react-query";
import { currentLanguage } from "../../../../shared/i18n/languages";
import { type RegisterBody, type User, userSchema } from "../../../../shared/schemas";
import { requestJson } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

/** A new account speaks the language its sign-up page spoke: its mails follow it from then on. */
export async function register(body: RegisterBody): Promise<User> {
  return requestJson("POST", "/api/register", userSchema, { language: currentLanguage(), ...body });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => refreshSession(queryClient),
  });
}
