import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES, recordingsAdded } from "../../../../shared/messages";
import { RELATIVES } from "../../../../shared/relatives";
import type { Memory, UnclaimedMemory } from "../../../../shared/schemas";
import { dismissToast } from "../../../components/ui/use-toast";
import { fakeApi, json, makeMemory, me, pageOf, renderWithApp } from "../../../test/fake-api";
import { LoginDialog } from "../../auth/components/login-dialog";
import { MemorySavedEffects } from "../processing/memory-saved-effects";
import { MemoryList } from "./memory-list";
import { UnclaimedRecordings } from "./unclaimed-recordings";

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

const unclaimed = (overrides: Partial<Memory>): UnclaimedMemory => ({
  ...makeMemory({ user_id: null, ...overrides }),
  claimExpiresAt: "2026-05-02T10:00:00.000Z",
});

const saved = unclaimed({ id: "m1", title: "Our day at the beach" });
const failed = unclaimed({
  id: "m2",
  title: "",
  status: "failed",
  stage: "transcribe",
  error: "transcribe.no_speech",
  tags: [],
});

/** A browser with two unclaimed recordings; logged out until it registers or logs in. */
function server() {
  let loggedIn = false;
  let items = [saved, failed];
  const api = fakeApi([
    ({ url }) =>
      url === "/api/user"
        ? loggedIn
          ? json(me)
          : json({ code: "not_logged_in", message: "Not logged in" }, 401)
        : undefined,
    ({ method, url }) => {
      if (method !== "POST" || (url !== "/api/register" && url !== "/api/login")) return undefined;
      loggedIn = true;
      return json(me, url === "/api/register" ? 201 : 200);
    },
    ({ method, url }) => {
      const claim = /^\/api\/memories\/(\w+)\/claim$/.exec(url);
      if (method !== "POST" || !claim) return undefined;
      items = items.filter((m) => m.id !== claim[1]);
      return json(makeMemory({ id: claim[1], user_id: me.id }));
    },
    ({ method, url }) => {
      if (method !== "DELETE" || url !== "/api/memories/m2") return undefined;
      items = items.filter((m) => m.id !== "m2");
      return json({ ok: true });
    },
    ({ url }) => (url === "/api/memories/unclaimed" ? json({ items }) : undefined),
    ({ url }) => (url.startsWith("/api/memories?") ? json(pageOf([])) : undefined),
  ]);
  return api;
}

describe("recordings not saved to an account yet", () => {
  it("shows a visitor each one, in any state, with a way to save it; a silent one records again or deletes", async () => {
    const api = server();
    const user = userEvent.setup();
    renderWithApp(
      <>
        <UnclaimedRecordings />
        <MemorySavedEffects />
      </>,
    );
    const list = await screen.findByRole("list", { name: MESSAGES.unclaimedHeading });
    expect(screen.getByRole("heading", { name: MESSAGES.unclaimedHeading })).toBeInTheDocument();
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent("Our day at the beach");
    expect(within(first as HTMLElement).queryByRole("button", { name: MESSAGES.retry })).toBeNull();
    expect(second).toHaveTextContent(MESSAGES.untitledMemory);
    expect(second).toHaveTextContent(MESSAGES.noSpeechDetected);
    // No speech: Retry would fail the same way, so it is not offered.
    expect(within(second as HTMLElement).queryByRole("button", { name: "Retry" })).toBeNull();
    expect(
      within(second as HTMLElement).getByRole("button", { name: RELATIVES.recordAgain }),
    ).toBeEnabled();

    // The failed one is discarded with the usual typed confirmation.
    await user.click(
      within(second as HTMLElement).getByRole("button", {
        name: `${MESSAGES.deleteMemory} ${MESSAGES.untitledMemory}`,
      }),
    );
    const confirm = await screen.findByRole("dialog");
    await user.type(within(confirm).getByLabelText("Confirmation"), "delete");
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText(MESSAGES.memoryDeleted)).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
    expect(api.requests.some((r) => r.method === "DELETE" && r.url === "/api/memories/m2")).toBe(
      true,
    );

    // "Save to an account" opens the save-account dialog; the new account claims it.
    await user.click(within(list).getByRole("button", { name: MESSAGES.saveToAccount }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Username"), "grandma_rose");
    await user.type(within(dialog).getByLabelText("Password"), "sandcastle-2026");
    await user.click(within(dialog).getByRole("button", { name: "Save Account" }));
    expect(await screen.findByText(MESSAGES.accountSaved)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole("heading", { name: MESSAGES.unclaimedHeading })).toBeNull(),
    );
    expect(api.requests.filter((r) => r.url.endsWith("/claim")).map((r) => r.url)).toEqual([
      "/api/memories/m1/claim",
    ]);
    // Nothing else was left, so no offer follows.
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("logging in from the top bar offers to add them, and adds them all", async () => {
    const api = server();
    const user = userEvent.setup();
    renderWithApp(
      <>
        <LoginDialog open onOpenChange={() => {}} />
        <MemorySavedEffects />
      </>,
    );
    const login = await screen.findByRole("dialog", { name: MESSAGES.logIn });
    await user.type(within(login).getByLabelText("Username"), "nana");
    await user.type(within(login).getByLabelText("Password"), "a long enough password");
    await user.click(within(login).getByRole("button", { name: MESSAGES.logIn }));

    const offer = await screen.findByRole("dialog", { name: MESSAGES.attachOfferTitle });
    expect(offer).toHaveTextContent("Our day at the beach");
    expect(offer).toHaveTextContent(MESSAGES.untitledMemory);
    await user.click(within(offer).getByRole("button", { name: MESSAGES.addToMyAccount }));
    expect(await screen.findByText(recordingsAdded(2))).toBeInTheDocument();
    expect(api.requests.filter((r) => r.url.endsWith("/claim")).map((r) => r.url)).toEqual([
      "/api/memories/m1/claim",
      "/api/memories/m2/claim",
    ]);
  });

  it("logged in, the same browser's leftovers are added from the home section directly", async () => {
    fakeApi([
      ({ url }) => (url === "/api/user" ? json(me) : undefined),
      ({ url }) => (url === "/api/memories/unclaimed" ? json({ items: [saved] }) : undefined),
      ({ method, url }) =>
        method === "POST" && url === "/api/memories/m1/claim"
          ? json(
              {
                code: "memory.already_claimed",
                message: "This memory has already been saved to an account",
              },
              409,
            )
          : undefined,
    ]);
    const user = userEvent.setup();
    renderWithApp(<UnclaimedRecordings />);
    expect(await screen.findByText(MESSAGES.unclaimedIntroLoggedIn)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: MESSAGES.addToMyAccount }));
    expect(await screen.findByText(MESSAGES.claimFailed)).toBeInTheDocument();
    expect(
      screen.getByText("This memory has already been saved to an account"),
    ).toBeInTheDocument();
  });

  it("shows nothing when this browser has none", async () => {
    const api = fakeApi([
      ({ url }) =>
        url === "/api/user"
          ? json({ code: "not_logged_in", message: "Not logged in" }, 401)
          : undefined,
      ({ url }) => (url === "/api/memories/unclaimed" ? json({ items: [] }) : undefined),
    ]);
    renderWithApp(<UnclaimedRecordings />);
    await waitFor(() =>
      expect(api.requests.map((r) => r.url)).toContain("/api/memories/unclaimed"),
    );
    expect(screen.queryByRole("heading", { name: MESSAGES.unclaimedHeading })).toBeNull();
  });
});

describe("a failed memory in the owner's list", () => {
  it("can be deleted from the list with the delete confirmation", async () => {
    const silent = makeMemory({
      id: "m9",
      title: "",
      status: "failed",
      stage: "transcribe",
      error: MESSAGES.noSpeechDetected,
    });
    const api = fakeApi([
      ({ method, url }) =>
        method === "DELETE" && url === "/api/memories/m9" ? json({ ok: true }) : undefined,
    ]);
    const user = userEvent.setup();
    renderWithApp(
      <MemoryList
        data={pageOf([silent, makeMemory()])}
        isLoading={false}
        error={null}
        page={1}
        onPage={() => {}}
        isOwner={() => true}
        empty={null}
      />,
    );
    // Only the failed one has it.
    expect(await screen.findAllByRole("button", { name: /^Delete / })).toHaveLength(1);
    await user.click(
      screen.getByRole("button", {
        name: `${MESSAGES.deleteMemory} ${MESSAGES.untitledMemory}`,
      }),
    );
    const confirm = await screen.findByRole("dialog");
    const submit = within(confirm).getByRole("button", { name: "Delete" });
    expect(submit).toBeDisabled();
    await user.type(within(confirm).getByLabelText("Confirmation"), "DELETE");
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.memoryDeleted)).toBeInTheDocument();
    expect(api.requests).toContainEqual(
      expect.objectContaining({ method: "DELETE", url: "/api/memories/m9", body: undefined }),
    );
  });
});
