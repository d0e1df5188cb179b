import { PHOTO_FIELD } from "../../../../shared/photos";
import { type Photo, photoSchema } from "../../../../shared/schemas";
import { sendParsed } from "../../../lib/api-client";

export function photosUrl(memoryId: string): string {
  return `/api/memories/${encodeURIComponent(memoryId)}/photos`;
}

/** POST /api/memories/{id}/photos: one file, as the multipart field `photo`. */
export async function addPhoto(memoryId: string, file: Blob): Promise<Photo> {
  const form = new FormData();
  form.append(PHOTO_FIELD, file);
  return sendParsed(
    () => fetch(photosUrl(memoryId), { method: "POST", body: form, credentials: "include" }),
    photoSchema,
  );
}
