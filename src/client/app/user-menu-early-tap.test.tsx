import { fireEvent, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { MESSAGES, signedInAs } from "../../shared/messages";
import type { User } from "../../shared/schemas";
import { USER_PATH } from "../features/auth/api/get-user";
import { clearToasts, fakeApi, renderWithApp } from "../test/app-render";
import { TopBar } from "./top-bar";

// A file of its own: the menu's code is loaded once per module graph, and this test needs the
// moment before it arrives.

const jo: User = {
  id: "u1",
  username: "joanna",
  displayName: "Grandma Jo",
  isPublic: true,
  email: null,
};

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

it("opens the user menu for a press on its button made before the menu's code arrived", async () => {
  fakeApi({ [`GET ${USER_PATH}`]: { body: jo } });
  renderWithApp(<TopBar />);
  const early = await screen.findByRole("button", { name: MESSAGES.userMenu });
  // Still the button drawn before the menu's code (the menu's trigger says it has a popup).
  expect(early).not.toHaveAttribute("aria-haspopup");
  // A press whose click never reaches this button: the menu's code arrived between the pointer
  // going down and coming up, and the button under it was replaced (CI lost such a tap).
  fireEvent.pointerDown(early, { button: 0, pointerType: "mouse" });
  expect(await screen.findByRole("menu")).toBeInTheDocument();
  expect(screen.getByText(signedInAs(jo))).toBeInTheDocument();
});
