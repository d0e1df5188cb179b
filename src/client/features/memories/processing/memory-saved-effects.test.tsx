import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import { fakeApi, json, makeMemory, me, renderWithApp } from "../../../test/fake-api";
import { MemorySavedEffects } from "./memory-saved-effects";
import { announceMemorySaved } from "./memory-saved-events";

function server(claimStatus: number) {
  let registered = false;
  return fakeApi([
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
    ({ method, url }) =>
      method === "POST" && url === "/api/memories/m1/claim"
        ? claimStatus === 200
          ? json(makeMemory({ user_id: me.id }))
          : json(
              { message: "This memory can no longer be claimed; please record it again" },
              claimStatus,
            )
        : undefined,
  ]);
}

async function saveAccount() {
  const user = userEvent.setup();
  const dialog = await screen.findByRole("dialog");
  await user.type(screen.getByLabelText("Username"), "grandma_rose");
  await user.type(screen.getByLabelText("Password"), "sandcastle-2026");
  await user.click(screen.getByRole("button", { name: "Save Account" }));
  return dialog;
}

describe("MemorySavedEffects", () => {
  it("after an anonymous recording: toast, save-account dialog, private account, claim, 'Account saved!'", async () => {
    const api = server(200);
    renderWithApp(<MemorySavedEffects />);
    act(() => announceMemorySaved(makeMemory({ user_id: null })));
    expect(await screen.findByText(MESSAGES.memorySaved)).toBeInTheDocument();
    await saveAccount();
    expect(await screen.findByText(MESSAGES.accountSaved)).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const register = api.requests.find((r) => r.url === "/api/register");
    expect(register?.body).toMatchObject({ username: "grandma_rose", isPublic: false });
    const claim = api.requests.findIndex((r) => r.url === "/api/memories/m1/claim");
    expect(claim).toBeGreaterThan(api.requests.indexOf(register as never));
  });

  it("says the account was created but the memory could not be linked when the claim fails", async () => {
    server(409);
    renderWithApp(<MemorySavedEffects />);
    act(() => announceMemorySaved(makeMemory({ user_id: null })));
    await saveAccount();
    expect(await screen.findByText(MESSAGES.accountCreated)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.accountCreatedClaimFailed)).toBeInTheDocument();
  });

  it("offers no dialog when the memory already has an owner (logged in)", async () => {
    server(200);
    renderWithApp(<MemorySavedEffects />);
    act(() => announceMemorySaved(makeMemory()));
    expect(await screen.findByText(MESSAGES.memorySaved)).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
