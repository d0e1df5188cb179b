import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import { fakeApi, json, makeMemory, me, pageOf, renderWithApp } from "../../../test/fake-api";
import { HomeMemories } from "../components/home-memories";
import { MemorySavedEffects } from "./memory-saved-effects";
import { announceMemorySaved } from "./memory-saved-events";

/**
 * After "Account saved!" the claimed memory was missing ("No memories found.") whenever
 * the first list response was slow: it was answered before the claim, and refreshing the lists
 * joined that fetch instead of asking again.
 */
describe("claiming after signing up", () => {
  it("leaves the claimed memory in the list even when the first list response is slow", async () => {
    let registered = false;
    let claimed = false;
    // The first list request is on its way before the claim, and answered after it.
    let listAsked = () => {};
    const firstListAsked = new Promise<void>((resolve) => {
      listAsked = resolve;
    });
    let claimDone = () => {};
    const claimFinished = new Promise<void>((resolve) => {
      claimDone = resolve;
    });
    const api = fakeApi([
      ({ url }) =>
        url === "/api/user"
          ? registered
            ? json(me)
            : json({ code: "not_logged_in", message: "Not logged in" }, 401)
          : undefined,
      ({ method, url }) => {
        if (method !== "POST" || url !== "/api/register") return undefined;
        registered = true;
        return json(me, 201);
      },
      async ({ method, url }) => {
        if (method !== "POST" || url !== "/api/memories/m1/claim") return undefined;
        await firstListAsked;
        claimed = true;
        claimDone();
        return json(makeMemory({ user_id: me.id }));
      },
      async ({ url }) => {
        if (!url.startsWith("/api/journals/juser-1/memories?page=1")) return undefined;
        const items = claimed ? [makeMemory({ user_id: me.id })] : [];
        listAsked();
        await claimFinished; // slow: it arrives after the claim, with what was true before it
        return json(pageOf(items));
      },
      ({ url }) => (url === "/api/memories/unclaimed" ? json({ items: [] }) : undefined),
    ]);
    renderWithApp(
      <>
        <HomeMemories />
        <MemorySavedEffects />
      </>,
    );
    act(() => announceMemorySaved(makeMemory({ user_id: null })));
    const user = userEvent.setup();
    await screen.findByRole("dialog");
    await user.type(screen.getByLabelText("Username"), "grandma_rose");
    await user.type(screen.getByLabelText("Password"), "sandcastle-2026");
    await user.click(screen.getByRole("button", { name: "Save Account" }));
    expect(await screen.findByText(MESSAGES.accountSaved)).toBeInTheDocument();

    expect(await screen.findByRole("list", { name: "Memories" })).toBeInTheDocument();
    expect(screen.getByText("Our day at the beach")).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.noMemoriesFound)).toBeNull();
    // The first list request really was answered before the claim and then asked again.
    const lists = api.requests.filter((r) =>
      r.url.startsWith("/api/journals/juser-1/memories?page=1"),
    );
    expect(lists.length).toBeGreaterThanOrEqual(2);
  });
});
