import { queryOptions, useQuery } from "@tanstack/react-query";
import { memoryOwnerSchema } from "../../../../shared/schemas";
import { getJson } from "../../../lib/api-client";
import { memoryKeys, memoryUrl } from "./memory-keys";

/** GET /api/memories/{id}/owner: whose memory it is (null when recorded without an account). */
export const memoryOwnerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: memoryKeys.owner(id),
    queryFn: () => getJson(`${memoryUrl(id)}/owner`, memoryOwnerSchema),
  });

export function useMemoryOwner(id: string) {
  return useQuery(memoryOwnerQueryOptions(id));
}
