import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { PAGE_SIZE } from "../../../../shared/constants";
import type { Memory, MemoryPage, User } from "../../../../shared/schemas";
import { Toaster } from "../../../components/ui/toaster";
import { createQueryClient } from "../../../lib/query-client";

export interface FakeRequest {
  method: string;
  url: string;
  body: unknown;
}

type Handler = (request: FakeRequest) => Response | Promise<Response | undefined> | undefined;

/** Stubs fetch (the boundary to the server) with a list of handlers; records every request. */
export function fakeApi(handlers: Handler[]) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = (init?.method ?? "GET").toUpperCase();
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    const request = { method, url, body };
    requests.push(request);
    for (const handler of handlers) {
      const response = await handler(request);
      if (response) return response;
    }
    return json({ message: "Not found" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { requests };
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: status === 200 ? "OK" : "Error",
    headers: { "content-type": "application/json" },
  });
}

export const me: User = {
  id: "user-1",
  username: "nana",
  displayName: "Nana",
  isPublic: true,
  email: null,
};

export function userHandler(user: User | null = me): Handler {
  return ({ url }) =>
    url === "/api/user" ? (user ? json(user) : json({ message: "Not logged in" }, 401)) : undefined;
}

export function makeMemory(overrides: Partial<Memory> = {}): Memory {
  return {
    id: "m1",
    user_id: me.id,
    title: "Our day at the beach",
    audioUrl: "/api/audio/a1",
    transcript: "We built castles.",
    summary: "My darling, we built castles.",
    scores: {
      meaningfulness: 7,
      cuteness: 9,
      excitement: 4,
      interest: 6,
      uniqueness: 3,
      overall: 8,
    },
    duration: 3,
    recordedAt: "2024-06-01T12:30:00.000Z",
    tags: ["beach", "family"],
    status: "saved",
    stage: null,
    error: null,
    createdAt: "2024-06-01T12:31:00.000Z",
    question: null,
    language: null,
    ...overrides,
  };
}

export function pageOf(items: Memory[], total = items.length, page = 1): MemoryPage {
  return { items, total, page, pageSize: PAGE_SIZE };
}

/** Renders with a fresh query client, the toaster and an in-memory location. */
export function renderWithApp(ui: ReactNode, path = "/") {
  const location = memoryLocation({ path, record: true });
  const queryClient = createQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook}>{ui}</Router>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, location, queryClient };
}
