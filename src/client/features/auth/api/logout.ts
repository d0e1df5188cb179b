import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MESSAGES } from "../../../../shared/messages";
import { toast } from "../../../components/ui/use-toast";
import { apiRequest } from "../../../lib/api-client";
import { refreshSession } from "./get-user";

export async function logout(): Promise<void> {
  await apiRequest("POST", "/api/logout");
}

/** Logging out, with the spec's goodbye or failure toast, wherever it is offered. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: async () => {
      await refreshSession(queryClient);
      toast({ title: MESSAGES.goodbye });
    },
    onError: () =>
      toast({
        title: MESSAGES.logoutFailed,
        description: MESSAGES.pleaseTryAgain,
        variant: "destructive",
      }),
  });
}
