import type { Readable } from "node:stream";
import { badRequest } from "../http-errors";

/**
 * The multipart parser (busboy) reports a malformed or cut-off body with plain errors, which would
 * answer 500; they are the client's fault, so they answer 400 `upload_incomplete`, naming the
 * file's field when it is known (the parser's words go to the log). Its own limit errors keep
 * their status (413 for a file too large).
 */
export function asMultipartClientError(error: unknown, field?: string): unknown {
  if (error instanceof Error && (error as { statusCode?: number }).statusCode === undefined) {
    return badRequest("upload_incomplete", error.message, field);
  }
  return error;
}

/**
 * A failure while an uploaded file was read and stored. When the parser broke the file's stream
 * off (the body malformed or cut off), the failure is the client's (400), whichever of the
 * parser's errors reached the reader: busboy fails one cut-off part with two errors, and which one
 * the reader sees depends on timing. A system error (a full disk, with its `code`, which a pipeline
 * also destroys the file's stream with) and any failure on an intact stream keep their error.
 */
export function asUploadClientError(error: unknown, file: Readable, field: string): unknown {
  if (file.errored !== null && !hasSystemCode(error)) {
    return asMultipartClientError(error, field);
  }
  return error;
}

function hasSystemCode(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === "string";
}
