import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { type Memory, type Photo, photoListSchema } from "../../../../shared/schemas";
import { apiRequest, requestJson } from "../../../lib/api-client";
import { invalidateMemoryLists } from "../../memories/api/get-memories";
import { memoryKeys } from "../../memories/api/memory-keys";
import { addPhoto, photosUrl } from "./add-photo";

/** The memory (its gallery) and every list (their covers) show the change. */
async function refresh(queryClient: QueryClient, memoryId: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: memoryKeys.detail(memoryId) });
  await invalidateMemoryLists(queryClient);
}

/** Adds the chosen files one after another (in the order chosen); the first failure stops it. */
export function useAddPhotos(memoryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (files: readonly Blob[]) => {
      const added: Photo[] = [];
      try {
        for (const file of files) added.push(await addPhoto(memoryId, file));
      } finally {
        if (added.length > 0) await refresh(queryClient, memoryId);
      }
      return added;
    },
  });
}

/** PUT /api/memories/{id}/photos: every photo id in the new order, the cover first. */
export function useReorderPhotos(memoryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      requestJson("PUT", photosUrl(memoryId), photoListSchema, { ids }),
    onSuccess: async ({ photos }) => {
      queryClient.setQueryData<Memory>(memoryKeys.detail(memoryId), (memory) =>
        memory ? { ...memory, photos } : memory,
      );
      await invalidateMemoryLists(queryClient);
    },
    onError: () => refresh(queryClient, memoryId),
  });
}

/** DELETE /api/memories/{id}/photos/{photoId}. */
export function useRemovePhoto(memoryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (photoId: string) => {
      await apiRequest("DELETE", `${photosUrl(memoryId)}/${encodeURIComponent(photoId)}`);
    },
    onSettled: () => refresh(queryClient, memoryId),
  });
}
