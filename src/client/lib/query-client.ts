import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client";

/** Spec 7: no retries, no refetch on focus, no polling, never stale; mutations do not retry. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
