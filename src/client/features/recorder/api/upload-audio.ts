import { type UploadResponse, uploadResponseSchema } from "../../../../shared/schemas";
import { sendParsed } from "../../../lib/api-client";

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
  return sendParsed(
    () =>
      fetch("/api/upload", {
        method: "POST",
        body: form,
        credentials: "include",
        headers: uploadKey ? { "x-upload-key": uploadKey } : {},
        // A stalled connection must fail (and be retried) rather than hang; slow links get long enough.
        signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
      }),
    uploadResponseSchema,
  );
}
