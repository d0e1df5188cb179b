import type { QueryFunction } from "@tanstack/react-query";

/** Spec 7: a non-ok status throws; 500+ with status text, below 500 with the body text. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  if (res.status >= 500) throw new ApiError(res.status, `${res.status}: ${res.statusText}`);
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

/** The message to show a person for any error thrown by the API client. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
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

type UnauthorizedBehavior = "returnNull" | "throw";

/** Spec 7's default query: GET the first query-key element with credentials, parse JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await fetch(String(queryKey[0]), { credentials: "include" });
    if (options.on401 === "returnNull" && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
