import type { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiRequest, getQueryFn } from "./api-client";
import { createQueryClient } from "./query-client";

function mockFetch(response: Response) {
  const fn = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the default query function (spec 7)", () => {
  it("GETs the first query-key element with credentials and parses JSON", async () => {
    const fetchFn = mockFetch(new Response(JSON.stringify({ a: 1 }), { status: 200 }));
    const client = createQueryClient();
    const data = await client.fetchQuery({ queryKey: ["/api/thing", "ignored"] });
    expect(data).toEqual({ a: 1 });
    expect(fetchFn).toHaveBeenCalledWith("/api/thing", { credentials: "include" });
  });

  it("throws status plus body text below 500", async () => {
    mockFetch(new Response('{"message":"nope"}', { status: 404, statusText: "Not Found" }));
    await expect(getQueryFn({ on401: "throw" })({ queryKey: ["/x"] } as never)).rejects.toThrow(
      '404: {"message":"nope"}',
    );
  });

  it("throws status plus status text from 500", async () => {
    mockFetch(new Response("stack trace", { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("POST", "/x", {})).rejects.toThrow("503: Service Unavailable");
  });

  it("can treat 401 as no data", async () => {
    mockFetch(new Response("", { status: 401 }));
    await expect(
      getQueryFn({ on401: "returnNull" })({ queryKey: ["/x"] } as never),
    ).resolves.toBeNull();
  });

  it("never retries, never refetches on focus, never goes stale", () => {
    const client: QueryClient = createQueryClient();
    const defaults = client.getDefaultOptions();
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.refetchInterval).toBe(false);
    expect(defaults.queries?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(defaults.mutations?.retry).toBe(false);
  });
});
