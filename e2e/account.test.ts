import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, profileTitle, signedInAs } from "../src/shared/messages";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { seedMemory } from "./fixtures";
import { launchBrowser, newPage, type RunningServer, startServer } from "./harness";

const PHONE = { width: 390, height: 844 };

describe("the account page in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_AUTH_PER_MINUTE: "100" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  const username = `rose${Date.now().toString(36)}`;
  const firstPassword = "first password";
  const newPassword = "second password";

  /** Whole pages; a dialog as the screen shows it (its overlay covers the viewport only). */
  const shot = (page: Page, name: string, fullPage = true) =>
    page.screenshot({ path: path.join("test-results", name), fullPage, animations: "disabled" });

  async function openUserMenu(page: Page) {
    await page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await page.getByRole("menu").waitFor();
  }

  async function tryLogIn(page: Page, password: string) {
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.logIn });
    await dialog.getByLabel("Username").fill(username);
    await dialog.getByLabel("Password").fill(password);
    await dialog.getByRole("button", { name: MESSAGES.logIn }).click();
    return dialog;
  }

  /** Every audio file under the server's data folder. */
  async function audioFiles(): Promise<string[]> {
    const entries = await readdir(path.join(server.dataDir, "audio"), {
      withFileTypes: true,
      recursive: true,
    }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  }

  it("changes the display name and the password, then deletes the account with everything in it", async () => {
    // Another device, signed in with the first password, holding a memory with its recording.
    const otherDevice = new ApiClient(server.url);
    await otherDevice.register(username, firstPassword);
    const memory = await seedMemory(otherDevice, {
      title: "Our day at the beach",
      transcript: "We built a sandcastle together.",
      summary: "Our day at the beach. You built a sandcastle, my love.",
      tags: ["beach"],
    });
    expect(await audioFiles()).toHaveLength(1);

    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(server.url);
    await tryLogIn(page, firstPassword);
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();

    // From the user menu to the account page.
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.account }).click();
    await page.waitForURL(`${server.url}/account`);
    await page.getByRole("heading", { name: MESSAGES.accountTitle, level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Display name: the top bar and the profile title show it.
    const nameForm = page.getByRole("region", { name: MESSAGES.displayName });
    await nameForm.getByLabel(MESSAGES.displayName).fill("Grandma Rose");
    await nameForm.getByRole("button", { name: "Save display name" }).click();
    await page.getByText(MESSAGES.displayNameSaved).first().waitFor();
    await page.getByRole("button", { name: MESSAGES.userMenu }).getByText("Grandma Rose").waitFor();
    await openUserMenu(page);
    await page.getByText(signedInAs({ username, displayName: "Grandma Rose" })).waitFor();
    await page.getByRole("menuitem", { name: MESSAGES.viewProfile }).click();
    await page
      .getByRole("heading", { name: profileTitle({ username, displayName: "Grandma Rose" }) })
      .waitFor();
    await page.getByText(memory.title).first().waitFor();

    // Password: a wrong current password is refused under its field; then the change.
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.account }).click();
    const passwordForm = page.getByRole("region", { name: MESSAGES.changePassword });
    await passwordForm.getByLabel(MESSAGES.currentPassword).fill("not my password");
    await passwordForm.getByLabel(MESSAGES.newPassword).fill(newPassword);
    await passwordForm.getByLabel(MESSAGES.confirmPassword).fill(newPassword);
    await passwordForm.getByRole("button", { name: MESSAGES.changePassword }).click();
    await passwordForm.getByText(MESSAGES.currentPasswordIncorrect).waitFor();
    expect((await otherDevice.request("GET", "/api/user")).status).toBe(200);
    await passwordForm.getByLabel(MESSAGES.currentPassword).fill(firstPassword);
    await passwordForm.getByRole("button", { name: MESSAGES.changePassword }).click();
    await page.getByText(MESSAGES.passwordChanged).first().waitFor();
    // The other device is signed out; this browser stays signed in, also after a reload.
    expect((await otherDevice.request("GET", "/api/user")).status).toBe(401);
    await page.reload();
    await page.getByRole("heading", { name: MESSAGES.accountTitle, level: 1 }).waitFor();
    await shot(page, "account-desktop.png");

    // Log in again with the new password (the old one no longer works).
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.logOut }).click();
    await page.getByText(MESSAGES.goodbye).first().waitFor();
    const login = await tryLogIn(page, firstPassword);
    await page.getByText(MESSAGES.invalidCredentials).first().waitFor();
    await login.getByLabel("Password").fill(newPassword);
    await login.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("button", { name: MESSAGES.userMenu }).getByText("Grandma Rose").waitFor();

    // On a phone: the page fits, and passes axe.
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/account`);
    await page.getByRole("heading", { name: MESSAGES.accountTitle, level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await shot(page, "account-phone.png");

    // The danger zone offers the backup zip first.
    const danger = page.getByRole("region", { name: MESSAGES.deleteAccount });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      danger.getByRole("button", { name: MESSAGES.downloadBackupFirst }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");
    await page.getByText(MESSAGES.backupSuccessful).first().waitFor();

    // Delete, confirmed by typing the word.
    await danger.getByRole("button", { name: MESSAGES.deleteAccount }).click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.deleteAccountTitle });
    const confirm = dialog.getByRole("button", { name: MESSAGES.deleteAccount });
    await dialog.getByLabel("Confirmation").fill("delet");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Confirmation").fill("delete");
    await dialog.getByLabel(MESSAGES.currentPassword).fill(newPassword);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "account-delete-phone.png", false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, "account-delete-desktop.png", false);
    await confirm.click();
    await page.getByText(MESSAGES.accountDeleted).first().waitFor();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole("button", { name: MESSAGES.logIn }).waitFor();

    // Gone: the profile is 404, the recording too, no audio file is left, and logging in fails.
    const profile = await fetch(`${server.url}/api/users/${username}`);
    expect(profile.status).toBe(404);
    expect((await fetch(`${server.url}${memory.audioUrl}`)).status).toBe(404);
    expect(await audioFiles()).toEqual([]);
    await page.goto(`${server.url}/profile/${username}`);
    await page.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    await tryLogIn(page, newPassword);
    await page.getByText(MESSAGES.invalidCredentials).first().waitFor();
    expect(await page.getByRole("button", { name: MESSAGES.userMenu }).count()).toBe(0);

    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
