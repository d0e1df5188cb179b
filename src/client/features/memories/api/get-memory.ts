import { useQuery } from "@tanstack/react-query";
import type { Memory } from "../../../../shared/schemas";
import { memoryUrl } from "./memory-keys";

export function useMemory(id: string) {
  return useQuery<Memory>({
    queryKey: [memoryUrl(id)],
    // While the server processes it (e.g. after Retry), follow its stages until it settles.
    refetchInterval: (query) => (query.state.data?.status === "processing" ? 1500 : false),
  });
}
