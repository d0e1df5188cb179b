import type * as z from "zod/mini";
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

/** The response schemas of `src/shared/responses.ts`. */
export type Responses = typeof import("../../shared/responses");

/**
 * The schemas (and zod's core under them, about 15 kB gzip) load with the first request that parses
 * an answer rather than with the first screen: while a GET is on its way, before a change is sent.
 */
const loadResponses = (): Promise<Responses> => import("../../shared/responses");

async function parseBody<S extends z.ZodMiniType>(res: Response, schema: S): Promise<z.infer<S>> {
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
 * Sends a request built by `send` (a form, a file) and answers its body parsed with `pick`'s schema.
 * The schemas are loaded first: a change goes out only once its answer can be read, so a schema
 * chunk that fails to load (a connection blip) fails the request before the server has made the
 * change, rather than after, when the person would be told it failed and might make it twice.
 */
export async function sendParsed<S extends z.ZodMiniType>(
  send: () => Promise<Response>,
  pick: (responses: Responses) => S,
): Promise<z.infer<S>> {
  const responses = await loadResponses();
  const res = await send();
  await throwIfResNotOk(res);
  return parseBody(res, pick(responses));
}

/**
 * Sends a JSON request (as apiRequest) and answers the response's body parsed with `pick`'s schema,
 * loading the schemas before sending (see sendParsed).
 */
export function requestJson<S extends z.ZodMiniType>(
  method: string,
  url: string,
  pick: (responses: Responses) => S,
  data?: unknown,
): Promise<z.infer<S>> {
  return sendParsed(() => apiRequest(method, url, data), pick);
}

/**
 * Spec 7's default fetch: GET `url` with credentials, the JSON body parsed with `pick`'s schema.
 * `null` for a 401 when asked.
 */
export function getJson<S extends z.ZodMiniType>(
  url: string,
  pick: (responses: Responses) => S,
): Promise<z.infer<S>>;
export function getJson<S extends z.ZodMiniType>(
  url: string,
  pick: (responses: Responses) => S,
  options: { on401: "returnNull" },
): Promise<z.infer<S> | null>;
export async function getJson<S extends z.ZodMiniType>(
  url: string,
  pick: (responses: Responses) => S,
  options: { on401?: "returnNull" } = {},
): Promise<z.infer<S> | null> {
  const [res, responses] = await Promise.all([
    fetch(url, { credentials: "include" }),
    loadResponses(),
  ]);
  if (options.on401 === "returnNull" && res.status === 401) return null;
  await throwIfResNotOk(res);
  return parseBody(res, pick(responses));
}
