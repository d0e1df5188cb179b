import { badRequest } from "../http-errors";

/**
 * The multipart parser (busboy) reports a malformed or cut-off body with plain errors, which would
 * answer 500; they are the client's fault, so they answer 400 (its words go to the log). Its own
 * limit errors keep their status (413 for a file too large).
 */
export function asMultipartClientError(error: unknown): unknown {
  if (error instanceof Error && (error as { statusCode?: number }).statusCode === undefined) {
    return badRequest("upload_incomplete", error.message);
  }
  return error;
}
