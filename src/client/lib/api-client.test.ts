import type { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MESSAGES } from "../../shared/messages";
import { apiRequest, getJson, requestJson } from "./api-client";
import { createQueryClient } from "./query-client";

function mockFetch(response: Response) {
  const fn = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal("fetch", fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the default fetch (spec 7)", () => {
  it("GETs the URL with credentials and parses JSON", async () => {
    const fetchFn = mockFetch(new Response(JSON.stringify({ a: 1 }), { status: 200 }));
    const client = createQueryClient();
    const data = await client.fetchQuery({
      queryKey: ["thing"],
      queryFn: () => getJson("/api/thing", z.object({ a: z.number() })),
    });
    expect(data).toEqual({ a: 1 });
    expect(fetchFn).toHaveBeenCalledWith("/api/thing", { credentials: "include" });
  });

  it("throws status plus body text below 500", async () => {
    mockFetch(new Response('{"message":"nope"}', { status: 404, statusText: "Not Found" }));
    await expect(getJson("/x", z.unknown())).rejects.toThrow('404: {"message":"nope"}');
  });

  it("throws status plus status text from 500", async () => {
    mockFetch(new Response("stack trace", { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("POST", "/x", {})).rejects.toThrow("503: Service Unavailable");
  });

  it("can treat 401 as no data", async () => {
    mockFetch(new Response("", { status: 401 }));
    await expect(getJson("/x", z.unknown(), { on401: "returnNull" })).resolves.toBeNull();
  });

  it("answers a body of the wrong shape with a product message and logs the details", async () => {
    mockFetch(new Response('{"a":"one"}', { status: 200 }));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(getJson("/api/thing", z.object({ a: z.number() }))).rejects.toThrow(
      MESSAGES.unexpectedResponse,
    );
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/unexpected response/);
    expect(logged.mock.calls[0]?.[1]).toEqual([expect.objectContaining({ path: ["a"] })]);
    logged.mockRestore();
  });

  it("treats a body that is not JSON the same way", async () => {
    mockFetch(new Response("<html>", { status: 200 }));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(requestJson("POST", "/x", z.unknown(), {})).rejects.toThrow(
      MESSAGES.unexpectedResponse,
    );
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
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
