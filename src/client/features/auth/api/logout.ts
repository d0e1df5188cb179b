import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function logout(): Promise<void> {
  await apiRequest("POST", "/api/logout");
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => refreshSession(queryClient),
  });
}
