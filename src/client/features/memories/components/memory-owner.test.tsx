import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Link, Router, useLocation } from "wouter";
import { trackInAppHistory } from "../../../lib/in-app-history";
import { createQueryClient } from "../../../lib/query-client";
import { fakeApi, json, makeMemory, userHandler } from "../../../test/fake-api";
import { MemoryPage } from "./memory-page";

let stopTracking = () => {};
afterEach(() => {
  stopTracking();
  vi.unstubAllGlobals();
});

const here = () => `${window.location.pathname}${window.location.search}`;

const memory = makeMemory({ id: "m9", user_id: "rose-id" });

/**
 * The memory page as a relative sees it, behind the app's own screens and Back, in the browser's
 * history: `path` is opened as a new page would be (nothing of the app behind it).
 */
function setup(path: string, owner: { username: string; displayName: string | null } | null) {
  fakeApi([
    userHandler(null),
    ({ url }) => {
      if (url === `/api/memories/${memory.id}`) return json(memory);
      if (url === `/api/memories/${memory.id}/owner`) return json({ owner });
      if (url === `/api/memories/${memory.id}/comments`) return json([]);
      return undefined;
    },
  ]);
  vi.stubGlobal("scrollTo", vi.fn());
  window.history.replaceState(null, "", path);
  stopTracking = trackInAppHistory();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Router>
        <Screen />
      </Router>
    </QueryClientProvider>,
  );
  return { user: userEvent.setup() };
}

function Screen() {
  const [path] = useLocation();
  return path.startsWith("/memory/") ? (
    <MemoryPage id={memory.id} />
  ) : (
    <Link href={`/memory/${memory.id}`}>Open the memory</Link>
  );
}

describe("whose memory, and Back", () => {
  it("names the owner with a link to their memories; opened first (a QR code), Back goes there", async () => {
    const { user } = setup(`/memory/${memory.id}`, {
      username: "rose",
      displayName: "Grandma Rose",
    });
    const link = await screen.findByRole("link", { name: "Grandma Rose's Memories" });
    expect(link).toHaveAttribute("href", "/profile/rose");
    expect(screen.getByTestId("memory-owner")).toHaveTextContent("From Grandma Rose's Memories");
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(here()).toBe("/profile/rose");
  });

  it("opened first, then the owner's link and the browser's Back: Back still stays in the app", async () => {
    const { user } = setup(`/memory/${memory.id}`, { username: "rose", displayName: null });
    await user.click(await screen.findByRole("link", { name: "rose's Memories" }));
    await screen.findByRole("link", { name: "Open the memory" });
    window.history.back();
    await screen.findByRole("button", { name: "Back" });
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(here()).toBe("/profile/rose");
    await screen.findByRole("link", { name: "Open the memory" });
  });

  it("Back returns to the list it came from, with its page", async () => {
    const { user } = setup("/profile/rose?page=2", {
      username: "rose",
      displayName: null,
    });
    const entries = window.history.length;
    await user.click(screen.getByRole("link", { name: "Open the memory" }));
    await screen.findByRole("link", { name: "rose's Memories" });
    await user.click(screen.getByRole("button", { name: "Back" }));
    // The browser's own Back: no new entry, so its next Back leaves the list, not returns here.
    await waitFor(() => expect(here()).toBe("/profile/rose?page=2"));
    expect(window.history.length).toBe(entries + 1);
    await screen.findByRole("link", { name: "Open the memory" });
  });

  it("a memory recorded without an account names nobody, and Back goes home", async () => {
    const { user } = setup(`/memory/${memory.id}`, null);
    await screen.findByRole("heading", { name: memory.title });
    expect(screen.queryByTestId("memory-owner")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(here()).toBe("/");
  });
});
