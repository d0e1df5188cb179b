import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Route, Switch } from "wouter";
import { MESSAGES } from "../../../../shared/messages";
import { clearToasts, fakeApi, renderWithApp } from "../../../test/fake-api";
import { ResetPasswordPage } from "./reset-password-page";

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

function renderPage(path: string) {
  return renderWithApp(
    <Switch>
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/">
        <p>home page</p>
      </Route>
    </Switch>,
    path,
  );
}

describe("ResetPasswordPage", () => {
  it("shows 'Invalid Reset Link' and Return to Home without a token", async () => {
    fakeApi({});
    renderPage("/reset-password");
    expect(screen.getByText(MESSAGES.invalidResetLink)).toBeInTheDocument();
    expect(screen.queryByLabelText(MESSAGES.newPassword)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("link", { name: MESSAGES.returnToHome }));
    expect(await screen.findByText("home page")).toBeInTheDocument();
  });

  it("requires both passwords, at least 6 characters, and that they match", async () => {
    const api = fakeApi({});
    renderPage("/reset-password?token=abc");
    const submit = screen.getByRole("button", { name: "Reset Password" });
    await userEvent.click(submit);
    expect(await screen.findByText("New Password is required")).toBeInTheDocument();
    expect(screen.getByText("Confirm Password is required")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(MESSAGES.newPassword), "12345");
    await userEvent.type(screen.getByLabelText(MESSAGES.confirmPassword), "12345");
    await userEvent.click(submit);
    expect(await screen.findAllByText("Password must be at least 6 characters")).toHaveLength(2);

    await userEvent.clear(screen.getByLabelText(MESSAGES.newPassword));
    await userEvent.clear(screen.getByLabelText(MESSAGES.confirmPassword));
    await userEvent.type(screen.getByLabelText(MESSAGES.newPassword), "123456");
    await userEvent.type(screen.getByLabelText(MESSAGES.confirmPassword), "1234567");
    await userEvent.click(submit);
    expect(await screen.findByText(MESSAGES.passwordsDoNotMatch)).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("resets, says 'Password reset successful' and goes to /", async () => {
    const api = fakeApi({
      "POST /api/reset-password": { body: { ok: true } },
      "GET /api/user": {
        status: 401,
        body: { code: "not_logged_in", message: MESSAGES.notLoggedIn },
      },
    });
    const { location } = renderPage("/reset-password?token=tok-123");
    await userEvent.type(screen.getByLabelText(MESSAGES.newPassword), "brand-new");
    await userEvent.type(screen.getByLabelText(MESSAGES.confirmPassword), "brand-new");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(MESSAGES.passwordResetSuccessful)).toBeInTheDocument();
    expect(await screen.findByText("home page")).toBeInTheDocument();
    expect(location.history.at(-1)).toBe("/");
    expect(api.requests[0]).toEqual({
      method: "POST",
      url: "/api/reset-password",
      body: { token: "tok-123", password: "brand-new" },
    });
  });

  it("shows 'Password reset failed' with the server's message and stays", async () => {
    fakeApi({
      "POST /api/reset-password": {
        status: 400,
        body: { code: "auth.invalid_reset_token", message: MESSAGES.invalidResetToken },
      },
    });
    renderPage("/reset-password?token=used");
    await userEvent.type(screen.getByLabelText(MESSAGES.newPassword), "brand-new");
    await userEvent.type(screen.getByLabelText(MESSAGES.confirmPassword), "brand-new");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText(MESSAGES.passwordResetFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invalidResetToken)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(MESSAGES.newPassword)).toBeInTheDocument());
  });
});
