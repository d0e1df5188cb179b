import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../shared/messages";
import type { User } from "../../../shared/schemas";
import { clearToasts, fakeApi, renderWithApp } from "../../test/fake-api";
import { WatchPage } from "./watch-page";

const jo: User = { id: "u1", username: "joanna", displayName: null, isPublic: true, email: null };
const loggedOut = { status: 401, body: { code: "not_logged_in", message: MESSAGES.notLoggedIn } };

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

async function submitLogin(username: string, password: string) {
  await userEvent.type(await screen.findByLabelText("Username"), username);
  await userEvent.type(screen.getByLabelText("Password"), password);
  await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
}

describe("WatchPage", () => {
  it("keeps its frame, title and Back to Full App, and shows the login form when logged out", async () => {
    fakeApi({ "GET /api/user": loggedOut });
    renderWithApp(<WatchPage />, "/watch");
    expect(screen.getByRole("heading", { name: MESSAGES.watchTitle })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: MESSAGES.backToFullApp })).toHaveAttribute("href", "/");
    expect(await screen.findByLabelText("Username")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: MESSAGES.logout })).not.toBeInTheDocument();
    expect(screen.queryByTestId("watch-recorder-slot")).not.toBeInTheDocument();
  });

  it("requires both fields", async () => {
    const api = fakeApi({ "GET /api/user": loggedOut });
    renderWithApp(<WatchPage />, "/watch");
    await userEvent.click(await screen.findByRole("button", { name: MESSAGES.logIn }));
    expect(screen.getByText("Username is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(api.requests.map((c) => c.url)).toEqual(["/api/user"]);
  });

  it("shows the server's message inline when login fails", async () => {
    fakeApi({
      "GET /api/user": loggedOut,
      "POST /api/login": {
        status: 401,
        body: { code: "auth.invalid_credentials", message: MESSAGES.invalidCredentials },
      },
    });
    renderWithApp(<WatchPage />, "/watch");
    await submitLogin("joanna", "wrong1");
    expect(await screen.findByRole("alert")).toHaveTextContent(MESSAGES.invalidCredentials);
    expect(screen.queryByText(MESSAGES.welcomeBack)).not.toBeInTheDocument();
  });

  it("shows 'Login failed. Please try again.' when there is no server message", async () => {
    fakeApi({ "GET /api/user": loggedOut, "POST /api/login": { status: 502, body: "" } });
    renderWithApp(<WatchPage />, "/watch");
    await submitLogin("joanna", "secret1");
    expect(await screen.findByRole("alert")).toHaveTextContent(MESSAGES.watchLoginFailed);
  });

  it("logs in, then shows the recorder slot and a Logout button that logs out", async () => {
    let loggedIn = false;
    fakeApi({
      "GET /api/user": () => (loggedIn ? { body: jo } : loggedOut),
      "POST /api/login": () => {
        loggedIn = true;
        return { body: jo };
      },
      "POST /api/logout": () => {
        loggedIn = false;
        return { body: { ok: true } };
      },
    });
    renderWithApp(<WatchPage />, "/watch");
    await submitLogin("joanna", "secret1");
    expect(await screen.findByTestId("watch-recorder-slot")).toBeInTheDocument();
    // Spec 8: logging in greets with 'Welcome back!', here as in the main login.
    expect(await screen.findByText(MESSAGES.welcomeBack)).toBeInTheDocument();
    expect(screen.queryByLabelText("Username")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logout }));
    expect(await screen.findByText(MESSAGES.goodbye)).toBeInTheDocument();
    expect(await screen.findByLabelText("Username")).toBeInTheDocument();
  });
});
