import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isDatabaseUnavailable } from "../db/postgres-pool";
import { errorBody, HttpError } from "../http-errors";
import { StorageUnavailableError } from "../storage/audio-storage";

/** Shapes every error as `{ code, message }`; a library's own words go only to the log. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    // The field is named ("body.tags.5"); the check's own words go to the log.
    const path = error.validation[0]?.instancePath?.split("/").filter(Boolean) ?? [];
    const field = [error.validationContext ?? "body", ...path].join(".");
    request.log.info({ validation: error.validation }, "invalid request");
    return reply.code(400).send(errorBody("invalid_value", field));
  }
  if (error instanceof HttpError) {
    if (error.detail)
      request.log.info({ code: error.code, detail: error.detail }, "request refused");
    return reply.code(error.statusCode).send(errorBody(error.code, error.field));
  }
  const status = error.statusCode ?? 500;
  if (status === 429) {
    return reply.code(429).send(errorBody("too_many_requests"));
  }
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (malformed JSON, wrong content type, body too large).
    request.log.info({ err: error }, "request refused");
    const code = status === 413 ? "too_large" : status === 404 ? "not_found" : "bad_request";
    return reply.code(status).send(errorBody(code));
  }
  if (isDatabaseUnavailable(error)) {
    // A restart or failover: this request failed, the next one connects afresh.
    request.log.warn({ err: error }, "request failed: database unreachable");
    return reply.code(503).send(errorBody("database_unreachable"));
  }
  if (error instanceof StorageUnavailableError) {
    request.log.warn({ err: error }, "request failed: storage unreachable");
    return reply.code(503).send(errorBody("storage_unreachable"));
  }
  if (isDiskFull(error)) {
    // Nothing was kept (files are written to a temporary name first); the browser keeps the
    // recording and sends it again later.
    request.log.error({ err: error }, "request failed: the data disk is full");
    return reply.code(507).send(errorBody("storage_full"));
  }
  request.log.error({ err: error }, "request failed");
  return reply.code(500).send(errorBody("internal_error"));
}

/**
 * Codes of a full disk: the file system's (or the user's quota), SQLite's (the database file
 * cannot grow) and PostgreSQL's `disk_full`.
 */
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL", "53100"]);

/** The disk (or the user's quota) ran out while a file or the database was written. */
function isDiskFull(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && DISK_FULL_CODES.has(code)) return true;
  }
  return false;
}
