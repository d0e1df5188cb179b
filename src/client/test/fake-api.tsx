// The client tests' one fake of the server: fetch answered by the test, and the app's providers.
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { PAGE_SIZE, PROGRESS_NOTICE_MIN_MS } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import type { Journal, Member, Memory, MemoryPage, User } from "../../shared/schemas";
import { createUploadQueue } from "../app/upload-queue";
import { Toaster } from "../components/ui/toaster";
import { dismissToast } from "../components/ui/use-toast";
import { seedEmbeddedMemory } from "../features/memories/api/get-memory";
import { createQueryClient } from "../lib/query-client";
import { memoryStore, type UploadQueue } from "../lib/upload-queue";
import { UploadQueueProvider } from "../lib/upload-queue-context";

export interface FakeRequest {
  method: string;
  url: string;
  body: unknown;
  /** The request's headers (e.g. the download check). */
  headers: Headers;
}

export type Handler = (
  request: FakeRequest,
) => Response | Promise<Response | undefined> | undefined;

/** A JSON answer; a route without one answers 200 `{ ok: true }`. */
export interface FakeResponse {
  status?: number;
  body?: unknown;
}

export type FakeRoute = (request: FakeRequest) => FakeResponse;

/** Answers keyed by "METHOD /path" (the query string is ignored) as one handler. */
export function routes(answers: Record<string, FakeRoute | FakeResponse>): Handler {
  return (request) => {
    const route = answers[`${request.method} ${request.url.split("?")[0]}`];
    if (!route) return undefined;
    const answer = typeof route === "function" ? route(request) : route;
    const status = answer.status ?? 200;
    if (status === 204) return new Response(null, { status });
    return json(answer.body ?? { ok: true }, status);
  };
}

/** The journal of a person alone (`me`), in which `makeMemory`'s memories are told. */
export const myJournal: Journal = {
  id: "juser-1",
  name: "Nana's journal",
  role: "organizer",
  memberId: "s-me",
  language: "en",
};

export function makeMember(overrides: Partial<Member> = {}): Member {
  return {
    id: "s-me",
    name: "Nana",
    role: "organizer",
    email: null,
    invitationPending: false,
    hasAccount: true,
    isYou: true,
    ...overrides,
  };
}

/**
 * The logged-in user's journals and each one's members (`GET /api/journals`, `…/members`);
 * `journalHandler()` answers as for a person alone: their own journal, and them in it.
 */
export function journalHandler(
  journals: Journal[] = [myJournal],
  members: Record<string, Member[]> = { [myJournal.id]: [makeMember()] },
): Handler {
  return ({ method, url }) => {
    if (method !== "GET") return undefined;
    const path = url.split("?")[0];
    if (path === "/api/journals") return json(journals);
    const journalId = path?.match(/^\/api\/journals\/([^/]+)\/members$/)?.[1];
    const found = journalId === undefined ? undefined : members[decodeURIComponent(journalId)];
    return found ? json(found) : undefined;
  };
}

/**
 * Stubs fetch (the boundary to the server) with handlers tried in order, or with `routes`;
 * records every request. Unanswered requests get 404, so a missing stub fails instead of hanging;
 * the user's journals, unless a handler answers them, are a person alone's (`journalHandler()`).
 */
export function fakeApi(handlers: Handler[] | Record<string, FakeRoute | FakeResponse>): {
  requests: FakeRequest[];
  fn: ReturnType<typeof vi.fn<typeof fetch>>;
} {
  const list = [...(Array.isArray(handlers) ? handlers : [routes(handlers)]), journalHandler()];
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    const method = (init?.method ?? "GET").toUpperCase();
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    // Headers are there to read, not enumerable: tests compare requests by method, URL and body.
    const request = Object.defineProperty({ method, url, body } as FakeRequest, "headers", {
      value: new Headers(init?.headers),
      enumerable: false,
    });
    requests.push(request);
    for (const handler of list) {
      const response = await handler(request);
      if (response) return response;
    }
    return json({ message: "Not found" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { requests, fn: fetchMock };
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
    journalId: "juser-1",
    storyteller: { id: "s-me", name: "Me" },
    question: null,
    language: null,
    photos: [],
    ...overrides,
  };
}

/** `makeMemory` overrides for a memory of another account, in a journal `me` is not in. */
export const someoneElses = {
  user_id: "someone-else",
  journalId: "j-other",
  storyteller: { id: "s-other", name: "Rose" },
} satisfies Partial<Memory>;

export function pageOf(items: Memory[], total = items.length, page = 1): MemoryPage {
  return { items, total, page, pageSize: PAGE_SIZE };
}

/**
 * Renders as the app does: a fresh query client, the upload queue (kept in memory; pass your own
 * for a fake clock or finishers), the toaster and an in-memory location at `path`.
 */
export function renderWithApp(
  ui: ReactNode,
  path = "/",
  { uploads = createUploadQueue({ store: memoryStore() }) }: { uploads?: UploadQueue } = {},
) {
  const [pathname = "/", search = ""] = path.split("?");
  const location = memoryLocation({ path: pathname, searchPath: search, record: true });
  const queryClient = createQueryClient();
  seedEmbeddedMemory(queryClient);
  const result = render(
    <QueryClientProvider client={queryClient}>
      <UploadQueueProvider queue={uploads}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          {ui}
        </Router>
      </UploadQueueProvider>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, location, queryClient, uploads };
}

/** Closes toasts left by a test so the next one starts clean. */
export function clearToasts(): void {
  act(() => dismissToast());
}

/** Opens the user menu and returns it. */
export async function openUserMenu(user = userEvent.setup()): Promise<HTMLElement> {
  await user.click(await screen.findByRole("button", { name: MESSAGES.userMenu }));
  return screen.findByRole("menu");
}

/** Records the links clicked to start a download (href and download attribute) instead of following them. */
export function stubDownloadLinks() {
  const clicked: { href: string; download: string }[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push({ href: this.getAttribute("href") ?? "", download: this.download });
  });
  return clicked;
}

/**
 * Fakes the clock (it still moves on its own too, so Testing Library's waits work) and returns a
 * user whose typing does not wait on it. The test's afterEach restores real timers.
 */
export function fakeClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

/** The real timer, taken before any test fakes the clock: a turn of the event loop for real work. */
const realSetTimeout = globalThis.setTimeout;
const realTurn = () => new Promise<void>((resolve) => realSetTimeout(resolve, 0));

/** How far `passTime` goes on past `ms` for `until` before the test fails: a minute of the app's time. */
const PASS_TIME_LIMIT_MS = 60_000;

/**
 * Moves the faked clock on by `ms` in steps shorter than a progress notice's minimum time, the
 * screen rendered after each, so every notice shown meanwhile is on screen at some point. Between
 * steps the real work the app awaits (reading a recording, a fake server's answer) gets a real
 * turn; with `until`, the clock goes on past `ms` until it holds, since on a busy machine that work
 * may take more turns than the steps gave it.
 */
export async function passTime(ms: number, until?: () => boolean): Promise<void> {
  const step = PROGRESS_NOTICE_MIN_MS / 2;
  let passed = 0;
  while (passed < ms || (until && !until())) {
    if (passed >= ms + PASS_TIME_LIMIT_MS) throw new Error(`passTime: not done after ${passed} ms`);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(step);
      await realTurn();
    });
    passed += step;
  }
}
