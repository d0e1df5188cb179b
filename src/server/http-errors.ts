import { MESSAGES } from "../shared/messages";
import { errorResponseSchema } from "../shared/schemas";

/** An error whose message is safe to show: it becomes `{ message }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string = MESSAGES.notLoggedIn) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
/** Also used for things the caller may not see: private looks exactly like missing. */
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooLarge = (message: string = MESSAGES.tooLarge) => new HttpError(413, message);
export const tooManyRequests = () => new HttpError(429, MESSAGES.tooManyRequests);

/** A route schema's error answers: `{ message }` under each of these statuses. */
export function errorResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}
