import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "../../../../shared/messages";
import type { User } from "../../../../shared/schemas";
import { clearToasts, fakeApi, renderWithApp } from "../../../test/app-render";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { LoginDialog } from "./login-dialog";
import { SaveAccountDialog } from "./save-account-dialog";
import { SignUpDialog } from "./sign-up-dialog";

const jo: User = { id: "u1", username: "jo", displayName: null, isPublic: true, email: "jo@x.io" };

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

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
    expect(api.calls).toEqual([]);
  });

  it("logs in, refetches the user, says 'Welcome back!' and closes", async () => {
    let loggedIn = false;
    const api = fakeApi({
      "POST /api/login": () => {
        loggedIn = true;
        return { body: jo };
      },
      "GET /api/user": () => (loggedIn ? { body: jo } : { status: 401, body: { message: "x" } }),
    });
    const onOpenChange = vi.fn();
    renderWithApp(<LoginDialog open onOpenChange={onOpenChange} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    expect(await screen.findByText(MESSAGES.welcomeBack)).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(api.calls[0]).toEqual({
      method: "POST",
      url: "/api/login",
      body: { username: "joanna", password: "secret1" },
    });
  });

  it("shows 'Login failed' with the server's message", async () => {
    fakeApi({
      "POST /api/login": { status: 401, body: { message: MESSAGES.invalidCredentials } },
    });
    const onOpenChange = vi.fn();
    renderWithApp(<LoginDialog open onOpenChange={onOpenChange} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "nope");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.logIn }));
    expect(await screen.findByText(MESSAGES.loginFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invalidCredentials)).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
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
    expect(api.calls).toEqual([]);
  });

  it("registers a public account and says 'Welcome!'", async () => {
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
    expect(api.calls[0]?.body).toEqual({
      username: "joanna",
      email: "jo@x.io",
      password: "secret1",
      isPublic: true,
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("shows 'Registration failed' with the server's message", async () => {
    fakeApi({ "POST /api/register": { status: 409, body: { message: MESSAGES.usernameTaken } } });
    renderWithApp(<SignUpDialog open onOpenChange={() => undefined} />);
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Email"), "jo@x.io");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: MESSAGES.signUp }));
    expect(await screen.findByText(MESSAGES.registrationFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.usernameTaken)).toBeInTheDocument();
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
    expect(api.calls).toEqual([]);
    await userEvent.clear(screen.getByLabelText("Email"));
    await userEvent.type(screen.getByLabelText("Email"), "jo@x.io");
    await userEvent.click(submit);
    expect(await screen.findByText(MESSAGES.passwordResetEmailSent)).toBeInTheDocument();
    expect(api.calls[0]?.body).toEqual({ email: "jo@x.io" });
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
    expect(api.calls).toEqual([]);
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
    expect(api.calls[0]?.body).toEqual({
      username: "joanna",
      email: null,
      password: "secret1",
      isPublic: false,
    });
  });

  it("shows 'Failed to save account' with the server's message", async () => {
    fakeApi({ "POST /api/register": { status: 409, body: { message: MESSAGES.usernameTaken } } });
    const onRegistered = vi.fn();
    renderWithApp(
      <SaveAccountDialog open onOpenChange={() => undefined} onRegistered={onRegistered} />,
    );
    await userEvent.type(screen.getByLabelText("Username"), "joanna");
    await userEvent.type(screen.getByLabelText("Password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: "Save Account" }));
    expect(await screen.findByText(MESSAGES.failedSaveAccount)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.usernameTaken)).toBeInTheDocument();
    expect(onRegistered).not.toHaveBeenCalled();
  });
});
