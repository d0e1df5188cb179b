import type { z } from "zod";
import { ERROR_MESSAGES, type ErrorCode, MESSAGES, messageFor } from "../../shared/messages";

/** Spec 7: a non-ok status throws; 500+ with status text, below 500 with the body text. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  if (res.status >= 500) {
    // The spec's message for the console; the body may still carry the product's words (503, 507).
    const body = await res.text().catch(() => "");
    throw new ApiError(res.status, `${res.status}: ${res.statusText}`, body);
  }
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, `${res.status}: ${text}`, text);
}

/** An error whose message is already the product's words (a recorder's, a failed memory's). */
export class ProductError extends Error {}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: string,
  ) {
    super(message);
  }

  /** The server's error code (`{ code, message }`) when the body carries one. */
  get code(): string | undefined {
    if (!this.body) return undefined;
    try {
      const parsed = JSON.parse(this.body) as { code?: unknown };
      return typeof parsed.code === "string" ? parsed.code : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The message to show a person for any error thrown by the API client: the catalogue's words for
 * the server's code, never a status line or a library's text; those stay on the error, for the
 * console.
 */
export function errorMessage(error: unknown, fallback: ErrorCode = "internal_error"): string {
  if (error instanceof ApiError) return messageFor(error.code, fallback);
  // fetch itself failed: offline, or the server is unreachable ("Failed to fetch").
  if (error instanceof TypeError) return MESSAGES.connectionLost;
  if (error instanceof ProductError) return error.message;
  return ERROR_MESSAGES[fallback];
}

/** Sends a JSON request to our own API with credentials; throws on a non-ok status. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { "Content-Type": "application/json" } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return res;
}

/** An answer whose body is not the shape the endpoint promises; the person sees a product message. */
export class UnexpectedResponseError extends ProductError {
  constructor(readonly url: string) {
    super(MESSAGES.unexpectedResponse);
  }
}

async function parseBody<S extends z.ZodType>(res: Response, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await res.json();
  } catch (error) {
    console.error(`${res.url || "response"}: the body is not JSON`, error);
    throw new UnexpectedResponseError(res.url);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  console.error(`${res.url || "response"}: unexpected response`, result.error.issues, body);
  throw new UnexpectedResponseError(res.url);
}

/**
 * Sends a request built by `send` (a form, a file) and answers its body parsed with `schema`, one
 * of the shared schemas the server writes the response with.
 */
export async function sendParsed<S extends z.ZodType>(
  send: () => Promise<Response>,
  schema: S,
): Promise<z.output<S>> {
  const res = await send();
  await throwIfResNotOk(res);
  return parseBody(res, schema);
}

/** Sends a JSON request (as apiRequest) and answers the response's body parsed with `schema`. */
export function requestJson<S extends z.ZodType>(
  method: string,
  url: string,
  schema: S,
  data?: unknown,
): Promise<z.output<S>> {
  return sendParsed(() => apiRequest(method, url, data), schema);
}

/**
 * Spec 7's default fetch: GET `url` with credentials, the JSON body parsed with `schema`. `null`
 * for a 401 when asked.
 */
export function getJson<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>>;
export function getJson<S extends z.ZodType>(
  url: string,
  schema: S,
  options: { on401: "returnNull" },
): Promise<z.output<S> | null>;
export async function getJson<S extends z.ZodType>(
  url: string,
  schema: S,
  options: { on401?: "returnNull" } = {},
): Promise<z.output<S> | null> {
  const res = await fetch(url, { credentials: "include" });
  if (options.on401 === "returnNull" && res.status === 401) return null;
  await throwIfResNotOk(res);
  return parseBody(res, schema);
}
