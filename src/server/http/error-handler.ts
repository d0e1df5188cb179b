import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { MESSAGES } from "../../shared/messages";
import { HttpError } from "../http-errors";

/** Shapes every error as `{ message }`; only client errors say what went wrong. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = first?.instancePath?.replace(/^\//, "").replace(/\//g, ".") ?? "";
    const where = error.validationContext ?? "body";
    const message = first
      ? `${where}${field ? `.${field}` : ""}: ${first.message}`
      : "Invalid request";
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
    // Fastify's own client errors (malformed JSON, wrong content type, body too large) are safe.
    return reply.code(status).send({ message: error.message });
  }
  request.log.error({ err: error }, "request failed");
  return reply.code(500).send({ message: MESSAGES.internalError });
}
