import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import type { User } from "../../../../shared/schemas";
import { clearToasts, fakeApi, renderWithApp } from "../../../test/fake-api";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { LoginDialog } from "./login-dialog";
import { SaveAccountDialog } from "./save-account-dialog";
import { SignUpDialog } from "./sign-up-dialog";

const jo: User = { id: "u1", username: "jo", displayName: null, isPublic: true, email: "jo@x.io" };

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

/**
 * A failure is said inside the dialog (an alert holding the focus), not in a toast: a toast would
 * sit above the dialog and take its first Escape.
 */
async function expectFailureInDialog(title: string, message: string): Promise<HTMLElement> {
  const alert = await screen.findByRole("alert");
  expect(alert).toHaveTextContent(title);
  expect(alert).toHaveTextContent(message);
  expect(screen.getByRole("dialog")).toContainElement(alert);
  expect(alert).toHaveFocus();
  expect(screen.queryByRole("status")).toBeNull();
  return alert;
}

describe("LoginDialog", () => {
  it("labels its inputs and requires username and password without calling the API", async () => {
    const api = fakeApi({});
    renderWithApp(<LoginDialog open onOpenChange={() => undefined} />);
    expect(screen.getByLabelText("Username")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    expect(await screen.findByText("Username is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Username")).toHaveAttribute("aria-invalid", "true");
    expect(api.requests).toEqual([]);
  });

  it("logs in, refetches the user, says 'Welcome back!' and closes", async () => {
    let loggedIn = false;
    const api = fakeApi({
      "POST /api/login": () => {
        loggedIn = true;
        return { body: jo };
      },
      "GET /api/user": () =>
        loggedIn ? { body: jo } : { status: 401, body: { code: "not_logged_in", message: "x" } },
    });
    const onOpenChange = vi.fn();
    renderWithApp(<LoginDialog open onOpenChange={onOpenChange} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    expect(await screen.findByText(MESSAGES.welcomeBack)).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(api.requests[0]).toEqual({
      method: "POST",
      url: "/api/login",
      body: { username: "joanna", password: "secret1" },
    });
  });

  it("shows 'Login failed' with the server's message", async () => {
    fakeApi({
      "POST /api/login": {
        status: 401,
        body: { code: "auth.invalid_credentials", message: MESSAGES.invalidCredentials },
      },
    });
    const onOpenChange = vi.fn();
    renderWithApp(<LoginDialog open onOpenChange={onOpenChange} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "nope");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    await expectFailureInDialog(MESSAGES.loginFailed, MESSAGES.invalidCredentials);
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
    // The first Escape closes the dialog: no toast above it takes the key.
    await userEvent.keyboard("{Escape}");
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("says a failure in the product's words, never the status line", async () => {
    fakeApi({ "POST /api/login": { status: 500, body: "" } });
    renderWithApp(<LoginDialog open onOpenChange={() => undefined} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    const alert = await expectFailureInDialog(MESSAGES.loginFailed, MESSAGES.internalError);
    expect(alert.textContent).not.toMatch(/\d{3}:|Internal Server Error/);
  });
});

describe("SignUpDialog", () => {
  it("requires username, email and password, and checks their format", async () => {
    const api = fakeApi({});
    renderWithApp(<SignUpDialog open onOpenChange={() => undefined} />);
    const submit = screen.getByRole("button", { name: MESSAGES.signUp });
    await userEvent.click(submit);
    expect(await screen.findByText("Username is required")).toBeInTheDocument();
    expect(screen.getByText("Email is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Username"), "a b");
    await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
    await userEvent.type(screen.getByLabelText("Password"), "12345");
    await userEvent.click(submit);
    expect(await screen.findByText(/Username may contain only/)).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid email address")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("registers a private account unless public is chosen, and says 'Welcome!'", async () => {
    const api = fakeApi({
      "POST /api/register": { status: 201, body: jo },
      "GET /api/user": { body: jo },
    });
    const onOpenChange = vi.fn();
    renderWithApp(<SignUpDialog open onOpenChange={onOpenChange} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Email"), "jo@x.io");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.signUp }));
    expect(await screen.findByText(MESSAGES.welcome)).toBeInTheDocument();
    expect(api.requests[0]?.body).toEqual({
      username: "joanna",
      email: "jo@x.io",
      password: "secret1",
      isPublic: false,
      // The page's language becomes the account's.
      language: "en",
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("registers a public account when the person ticks the choice", async () => {
    const api = fakeApi({
      "POST /api/register": { status: 201, body: jo },
      "GET /api/user": { body: jo },
    });
    renderWithApp(<SignUpDialog open onOpenChange={() => undefined} />);
    const choice = screen.getByRole("checkbox", { name: MESSAGES.signUpPublicChoice });
    expect(choice).not.toBeChecked();
    expect(choice).toHaveAccessibleDescription(MESSAGES.signUpPublicHint);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Email"), "jo@x.io");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(choice);
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.signUp }));
    expect(await screen.findByText(MESSAGES.welcome)).toBeInTheDocument();
    expect(api.requests[0]?.body).toMatchObject({ username: "joanna", isPublic: true });
  });

  it("shows 'Registration failed' with the server's message", async () => {
    fakeApi({
      "POST /api/register": {
        status: 409,
        body: { code: "auth.username_taken", message: MESSAGES.usernameTaken },
      },
    });
    const onOpenChange = vi.fn();
    renderWithApp(<SignUpDialog open onOpenChange={onOpenChange} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Email"), "jo@x.io");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.signUp }));
    await expectFailureInDialog(MESSAGES.registrationFailed, MESSAGES.usernameTaken);
    await userEvent.keyboard("{Escape}");
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe("ForgotPasswordDialog", () => {
  it("requires a valid email, then says 'Password reset email sent'", async () => {
    const api = fakeApi({ "POST /api/forgot-password": { body: { ok: true } } });
    const onOpenChange = vi.fn();
    renderWithApp(<ForgotPasswordDialog open onOpenChange={onOpenChange} />);
    const submit = screen.getByRole("button", { name: "Send reset link" });
    await userEvent.click(submit);
    expect(await screen.findByText("Email is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Email"), "bad@");
    await userEvent.click(submit);
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(api.requests).toEqual([]);
    await userEvent.clear(screen.getByLabelText("Email"));
    await userEvent.type(screen.getByLabelText("Email"), "jo@x.io");
    await userEvent.click(submit);
    expect(await screen.findByText(MESSAGES.passwordResetEmailSent)).toBeInTheDocument();
    expect(api.requests[0]?.body).toEqual({ email: "jo@x.io" });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe("SaveAccountDialog", () => {
  it("requires username and password; email is optional but validated", async () => {
    const api = fakeApi({});
    renderWithApp(<SaveAccountDialog open onOpenChange={() => undefined} onRegistered={vi.fn()} />);
    const submit = screen.getByRole("button", { name: "Save Account" });
    await userEvent.click(submit);
    expect(await screen.findByText("Username is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.queryByText("Email is required")).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Email (optional)"), "nope");
    await userEvent.click(submit);
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("registers a private account without email and hands over the user", async () => {
    const saved = { ...jo, isPublic: false, email: null };
    const api = fakeApi({
      "POST /api/register": { status: 201, body: saved },
      "GET /api/user": { body: saved },
    });
    const onRegistered = vi.fn();
    renderWithApp(
      <SaveAccountDialog open onOpenChange={() => undefined} onRegistered={onRegistered} />,
    );
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: "Save Account" }));
    await waitFor(() => expect(onRegistered).toHaveBeenCalledWith(saved));
    expect(api.requests[0]?.body).toEqual({
      username: "joanna",
      email: null,
      password: "secret1",
      isPublic: false,
      language: "en",
    });
  });

  it("shows 'Failed to save account' with the server's message", async () => {
    fakeApi({
      "POST /api/register": {
        status: 409,
        body: { code: "auth.username_taken", message: MESSAGES.usernameTaken },
      },
    });
    const onRegistered = vi.fn();
    renderWithApp(
      <SaveAccountDialog open onOpenChange={() => undefined} onRegistered={onRegistered} />,
    );
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: "Save Account" }));
    await expectFailureInDialog(MESSAGES.failedSaveAccount, MESSAGES.usernameTaken);
    expect(onRegistered).not.toHaveBeenCalled();
  });
});
