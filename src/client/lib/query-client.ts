import { onlineManager, QueryClient } from "@tanstack/react-query";

/**
 * Spec 7: no retries, no refetch on focus, no polling, never stale; mutations do not retry. Every
 * query brings its own queryFn from its endpoint's query options (features/<feature>/api).
 */
export function createQueryClient(): QueryClient {
  // TanStack Query assumes it starts online and learns otherwise only from an 'offline' event. The
  // installed app also opens with no connection (ADR 0016): its queries then wait, and run when the
  // 'online' event comes, instead of failing once and never being asked again.
  if (typeof navigator !== "undefined") onlineManager.setOnline(navigator.onLine);
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
