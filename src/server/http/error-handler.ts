import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { MESSAGES } from "../../shared/messages";
import { isTechnicalText } from "../../shared/rules";
import { isDatabaseUnavailable } from "../db/postgres-pool";
import { HttpError } from "../http-errors";
import { StorageUnavailableError } from "../storage/audio-storage";

/** Shapes every error as `{ message }`; only client errors say what went wrong. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = first?.instancePath?.replace(/^\//, "").replace(/\//g, ".") ?? "";
    const where = error.validationContext ?? "body";
    // The field is named; the check's words are ours, or, for a library's default, plain ones.
    const said = first?.message ?? "";
    const words = said && !isTechnicalText(said) ? said : MESSAGES.invalidValue;
    const message = `${where}${field ? `.${field}` : ""}: ${words}`;
    return reply.code(400).send({ message });
  }
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).send({ message: error.message });
  }
  const status = error.statusCode ?? 500;
  if (status === 429) {
    return reply.code(429).send({ message: MESSAGES.tooManyRequests });
  }
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (malformed JSON, wrong content type, body too large): their
    // words are the library's, so they go to the log and the answer says it in the product's.
    request.log.info({ err: error }, "request refused");
    const message =
      status === 413 ? MESSAGES.tooLarge : status === 404 ? MESSAGES.notFound : MESSAGES.badRequest;
    return reply.code(status).send({ message });
  }
  if (isDatabaseUnavailable(error)) {
    // A restart or failover: this request failed, the next one connects afresh.
    request.log.warn({ err: error }, "request failed: database unreachable");
    return reply.code(503).send({ message: MESSAGES.databaseUnreachable });
  }
  if (error instanceof StorageUnavailableError) {
    request.log.warn({ err: error }, "request failed: storage unreachable");
    return reply.code(503).send({ message: MESSAGES.storageUnreachable });
  }
  if (isDiskFull(error)) {
    // Nothing was kept (files are written to a temporary name first); the browser keeps the
    // recording and sends it again later.
    request.log.error({ err: error }, "request failed: the data disk is full");
    return reply.code(507).send({ message: MESSAGES.storageFull });
  }
  request.log.error({ err: error }, "request failed");
  return reply.code(500).send({ message: MESSAGES.internalError });
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
