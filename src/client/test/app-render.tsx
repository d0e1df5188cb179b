import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { MESSAGES } from "../../shared/messages";
import { Toaster } from "../components/ui/toaster";
import { dismissToast } from "../components/ui/use-toast";
import { FIRST_PAINT_WAIT_MS } from "../lib/after-paint";
import { createQueryClient } from "../lib/query-client";

export interface FakeResponse {
  status?: number;
  body?: unknown;
}

export type FakeRoute = (request: { body: unknown; url: string }) => FakeResponse;

/**
 * Stubs fetch at the network boundary with answers keyed by "METHOD /path"; records every call.
 * Unknown routes answer 404 so a missing stub shows up as a failure, not a hang.
 */
export function fakeApi(routes: Record<string, FakeRoute | FakeResponse>) {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  const fn = vi.fn(async (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const route = routes[`${method} ${url.split("?")[0]}`];
    const answer = typeof route === "function" ? route({ body, url }) : route;
    const status = answer?.status ?? (route ? 200 : 404);
    const payload = answer?.body ?? (route ? { ok: true } : { message: "Not found" });
    return new Response(status === 204 ? null : JSON.stringify(payload), {
      status,
      statusText: status >= 400 ? "Error" : "OK",
      headers: { "content-type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fn);
  return { calls, fn };
}

/** Renders with a fresh query client, the toaster and an in-memory location. */
export function renderWithApp(ui: ReactNode, options: { path?: string } = {}) {
  const [pathname = "/", search = ""] = (options.path ?? "/").split("?");
  const location = memoryLocation({ path: pathname, searchPath: search, record: true });
  const queryClient = createQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {ui}
      </Router>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, location };
}

/** Closes toasts left by a test so the next one starts clean. */
export function clearToasts(): void {
  act(() => dismissToast());
}

/**
 * Opens the user menu once its code has arrived, and returns the menu. The button drawn before
 * it is replaced when the code arrives (where no paint is reported, as here, up to
 * FIRST_PAINT_WAIT_MS after the first render): a test holding that button could send its click to
 * a button no longer on the page. A press before the code is user-menu-early-tap.test.tsx's.
 */
export async function openUserMenu(user = userEvent.setup()): Promise<HTMLElement> {
  const trigger = await waitFor(
    () => {
      const button = screen.getByRole("button", { name: MESSAGES.userMenu });
      if (button.getAttribute("aria-haspopup") !== "menu") throw new Error("menu code not here");
      return button;
    },
    { timeout: FIRST_PAINT_WAIT_MS + 5000 },
  );
  await user.click(trigger);
  return screen.findByRole("menu");
}
