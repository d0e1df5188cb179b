import { ERROR_MESSAGES, type ErrorCode } from "../shared/messages";
import { errorResponseSchema } from "../shared/schemas";

/**
 * An error the API answers as `{ code, message }` with its status: the message is the catalogue's
 * words for the code, `field` (when given) the request's field it is about. `detail` (a file's
 * name, a library's reason) goes only to the log.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly field?: string,
  ) {
    super(ERROR_MESSAGES[code]);
  }
}

export const badRequest = (code: ErrorCode, detail?: string, field?: string) =>
  new HttpError(400, code, detail, field);
export const unauthorized = (code: ErrorCode = "not_logged_in") => new HttpError(401, code);
export const forbidden = (code: ErrorCode) => new HttpError(403, code);
/** Also used for things the caller may not see: private looks exactly like missing. */
export const notFound = (code: ErrorCode = "not_found") => new HttpError(404, code);
export const conflict = (code: ErrorCode) => new HttpError(409, code);
export const tooLarge = () => new HttpError(413, "too_large");
export const tooManyRequests = (code: ErrorCode = "too_many_requests") => new HttpError(429, code);

/** The body of an error answer: `{ code, message }`, and `field` when it is about one. */
export function errorBody(code: ErrorCode, field?: string) {
  return field === undefined
    ? { code, message: ERROR_MESSAGES[code] }
    : { code, message: ERROR_MESSAGES[code], field };
}

/** A route schema's error answers: `{ code, message, field? }` under each of these statuses. */
export function errorResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}
