import type { UploadResponse } from "../../../../shared/schemas";
import { throwIfResNotOk } from "../../../lib/api-client";

const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

/** POST /api/upload: multipart with the field `audio`; answers the stored audio's url and id. */
export async function uploadAudio(
  recording: Blob,
  filename: string,
  /** This recording's id: sending it again answers the first upload instead of storing a copy. */
  uploadKey?: string,
): Promise<UploadResponse> {
  const form = new FormData();
  form.append("audio", recording, filename);
  const res = await fetch("/api/upload", {
    method: "POST",
    body: form,
    credentials: "include",
    headers: uploadKey ? { "x-upload-key": uploadKey } : {},
    // A stalled connection must fail (and be retried) rather than hang; slow links get long enough.
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  await throwIfResNotOk(res);
  // Checked by hand: importing the zod schema would put zod in the first bundle.
  const body = (await res.json()) as Partial<UploadResponse>;
  if (typeof body.url !== "string" || typeof body.id !== "string") {
    throw new Error("The upload answer has no url");
  }
  return { url: body.url, id: body.id };
}
