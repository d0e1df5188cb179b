import type { z } from "zod";
import { MESSAGES } from "../../shared/messages";
import { familyMessage } from "../../shared/rules";

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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: string,
  ) {
    super(message);
  }

  /** The server's `{ message }` when the body carries one. */
  get serverMessage(): string | undefined {
    if (!this.body) return undefined;
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      return typeof parsed.message === "string" ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The message to show a person for any error thrown by the API client: the server's own words
 * (without the field name the API puts first), never a status line or a library's text; those
 * stay on the error, for the console.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return familyMessage(error.serverMessage, MESSAGES.internalError);
  // fetch itself failed: offline, or the server is unreachable ("Failed to fetch").
  if (error instanceof TypeError) return MESSAGES.connectionLost;
  if (error instanceof Error) return familyMessage(error.message, MESSAGES.internalError);
  return MESSAGES.internalError;
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
export class UnexpectedResponseError extends Error {
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
