import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetTokenFrom, type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { MESSAGES, signedInAs } from "../src/shared/messages";
import { launchBrowser, newPage, type RunningServer, startServer } from "./harness";

describe("accounts in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startServer({ SMTP_URL: smtp.url, RATE_LIMIT_AUTH_PER_MINUTE: "100" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
    await smtp?.close();
  });

  const username = `grandma${Date.now().toString(36)}`;
  const email = `${username}@example.com`;

  async function openUserMenu(page: Page) {
    await page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await page.getByRole("menu").waitFor();
  }

  async function logIn(page: Page, password: string) {
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.logIn });
    await dialog.getByLabel("Username").fill(username);
    await dialog.getByLabel("Password").fill(password);
    await dialog.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
  }

  it("signs up, logs out and in, toggles visibility, and resets a forgotten password", async () => {
    const first = await newPage(browser);
    const page = first.page;
    await page.goto(server.url);

    // Sign up
    await page.getByRole("button", { name: MESSAGES.signUp }).click();
    const signUp = page.getByRole("dialog", { name: MESSAGES.signUp });
    await signUp.getByRole("button", { name: MESSAGES.signUp }).click();
    await signUp.getByText("Username is required").waitFor();
    await signUp.getByLabel("Username").fill(username);
    await signUp.getByLabel("Email").fill(email);
    await signUp.getByLabel("Password").fill("first-password");
    await signUp.getByRole("button", { name: MESSAGES.signUp }).click();
    await page.getByText(MESSAGES.welcome, { exact: true }).first().waitFor();
    await openUserMenu(page);
    await page.getByText(signedInAs({ username })).waitFor();

    // Log out
    await page.getByRole("menuitem", { name: MESSAGES.logOut }).click();
    await page.getByText(MESSAGES.goodbye).first().waitFor();
    await page.getByRole("button", { name: MESSAGES.logIn }).waitFor();

    // Log in
    await logIn(page, "first-password");
    await page.getByText(MESSAGES.welcomeBack).first().waitFor();

    // A new account starts private, made from the top bar too: a visitor sees 'Profile not
    // found', the owner still sees it; made public, the visitor sees it.
    const visitor = await newPage(browser);
    await visitor.page.goto(`${server.url}/profile/${username}`);
    await visitor.page.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.viewProfile }).click();
    await page.getByRole("heading", { name: `${username}'s Memories` }).waitFor();
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.makeProfilePublic }).click();
    await page.getByText(MESSAGES.profileNowPublic).first().waitFor();
    await visitor.page.reload();
    await visitor.page.getByRole("heading", { name: `${username}'s Memories` }).waitFor();

    // Forgot password, from another browser
    await visitor.page.getByRole("button", { name: MESSAGES.forgotPassword }).click();
    const forgot = visitor.page.getByRole("dialog", { name: "Reset your password" });
    await forgot.getByLabel("Email").fill(email);
    await forgot.getByRole("button", { name: "Send reset link" }).click();
    await visitor.page.getByText(MESSAGES.passwordResetEmailSent).first().waitFor();
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.text).toContain(`${server.url}/reset-password?token=`);

    // Follow the link and reset
    await visitor.page.goto(`${server.url}/reset-password?token=${resetTokenFrom(mail)}`);
    await visitor.page.getByLabel(MESSAGES.newPassword).fill("second-password");
    await visitor.page.getByLabel(MESSAGES.confirmPassword).fill("second-passwort");
    await visitor.page.getByRole("button", { name: "Reset Password" }).click();
    await visitor.page.getByText(MESSAGES.passwordsDoNotMatch).waitFor();
    await visitor.page.getByLabel(MESSAGES.confirmPassword).fill("second-password");
    await visitor.page.getByRole("button", { name: "Reset Password" }).click();
    await visitor.page.getByText(MESSAGES.passwordResetSuccessful).first().waitFor();
    await visitor.page.waitForURL(`${server.url}/`);

    // The first browser's session ended with the reset.
    await page.reload();
    await page.getByRole("button", { name: MESSAGES.logIn }).waitFor();
    expect(await page.getByRole("button", { name: MESSAGES.userMenu }).count()).toBe(0);

    // The old password no longer works; the new one does.
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    const login = page.getByRole("dialog", { name: MESSAGES.logIn });
    await login.getByLabel("Username").fill(username);
    await login.getByLabel("Password").fill("first-password");
    await login.getByRole("button", { name: MESSAGES.logIn }).click();
    // The failure is said inside the dialog and holds the focus; the first Escape closes the dialog.
    const failure = login.getByRole("alert");
    await failure.getByText(MESSAGES.loginFailed).waitFor();
    await failure.getByText(MESSAGES.invalidCredentials).waitFor();
    expect(await failure.evaluate((alert) => alert === document.activeElement)).toBe(true);
    await page.keyboard.press("Escape");
    await login.waitFor({ state: "detached" });
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    expect(await login.getByRole("alert").count()).toBe(0);
    await login.getByLabel("Username").fill(username);
    await login.getByLabel("Password").fill("second-password");
    await login.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();

    // End state: signed in again with the new password.
    await login.waitFor({ state: "detached" });
    await openUserMenu(page);
    await page.getByText(signedInAs({ username })).waitFor();
    await page.screenshot({
      path: path.join("test-results", "journey-4-reset.png"),
      fullPage: true,
      animations: "disabled",
    });
    await page.keyboard.press("Escape");

    expect(first.consoleErrors).toEqual([]);
    expect(visitor.consoleErrors).toEqual([]);
    await first.context.close();
    await visitor.context.close();
  });

  it("logs in and out on the watch view", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(`${server.url}/watch`);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("alert").getByText(MESSAGES.invalidCredentials).waitFor();
    await page.getByLabel("Password").fill("second-password");
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByTestId("watch-recorder-slot").waitFor({ state: "attached" });
    await page.getByRole("button", { name: MESSAGES.logout }).click();
    await page.getByLabel("Username").waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
