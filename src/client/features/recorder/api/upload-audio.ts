import type { UploadResponse } from "../../../../shared/schemas";
import { parseResponse, throwIfResNotOk } from "../../../lib/api-client";

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
  return parseResponse(res, (r) => r.uploadResponse);
}
