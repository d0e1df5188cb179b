import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient, serverFixture } from "./api-client";
import { seriousViolations } from "./axe";
import { launchBrowser, newPage, type RunningServer, startServer } from "./harness";

describe("accessibility of every route (axe)", () => {
  let server: RunningServer;
  let browser: Browser;
  let memoryId: string;
  const username = "a11y_user";
  const password = "a long enough password";
  const memoryTitle = "Our day at the beach";

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const api = new ApiClient(server.url);
    await api.register(username, password);
    const upload = await api.upload(await serverFixture("tone.mp3"));
    const { url } = (await upload.json()) as { url: string };
    const created = await api.json<Memory>("POST", "/api/memories", {
      title: memoryTitle,
      audioUrl: url,
      transcript: "We built a sandcastle together.",
      summary: "Our day at the beach. You built a sandcastle, my love.",
      tags: ["beach", "sandcastle"],
      recordedAt: new Date().toISOString(),
    });
    expect(created.status).toBe(201);
    memoryId = created.data.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  const routes = () => [
    "/",
    `/memory/${memoryId}`,
    "/reset-password",
    "/reset-password?token=abc",
    `/profile/${username}`,
    "/profile/nobody_here",
    "/watch",
    "/unsubscribe",
    "/unsubscribe?u=someone&t=signature",
    "/no/such/page",
  ];

  /** Visits every route and returns the serious or critical violations, each prefixed by its route. */
  async function scanRoutes(page: Page): Promise<string[]> {
    const found: string[] = [];
    for (const route of routes()) {
      await page.goto(`${server.url}${route}`);
      await page.waitForLoadState("networkidle");
      found.push(...(await seriousViolations(page)).map((v) => `${route} ${v}`));
    }
    return found;
  }

  async function loggedInPage(): Promise<{ page: Page; context: BrowserContext }> {
    const { page, context } = await newPage(browser);
    const login = await page.request.post(`${server.url}/api/login`, {
      data: { username, password },
    });
    expect(login.status()).toBe(200);
    return { page, context };
  }

  it("has no serious or critical violations when logged out", async () => {
    const { page, context } = await newPage(browser);
    expect(await scanRoutes(page)).toEqual([]);
    await context.close();
  });

  it("has no serious or critical violations when logged in", async () => {
    const { page, context } = await loggedInPage();
    expect(await scanRoutes(page)).toEqual([]);
    await context.close();
  });

  /** Scans the page with its one dialog open, then closes it with Escape. */
  async function scanDialog(page: Page, name: string, found: string[]): Promise<void> {
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    found.push(...(await seriousViolations(page)).map((v) => `${name} ${v}`));
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
  }

  it("has no serious or critical violations with each logged-out dialog open", async () => {
    const { page, context } = await newPage(browser);
    const found: string[] = [];
    await page.goto(`${server.url}/`);
    for (const name of [MESSAGES.logIn, MESSAGES.signUp, MESSAGES.forgotPassword]) {
      await page.getByRole("button", { name, exact: true }).click();
      await scanDialog(page, name, found);
    }
    expect(found).toEqual([]);
    await context.close();
  });

  it("has no serious or critical violations with each logged-in dialog open", async () => {
    const { page, context } = await loggedInPage();
    const found: string[] = [];

    await page.goto(`${server.url}/`);
    await page.getByRole("button", { name: `Edit ${memoryTitle}` }).click();
    await scanDialog(page, MESSAGES.editMemory, found);

    await page.goto(`${server.url}/memory/${memoryId}`);
    await page.getByRole("button", { name: "Delete memory" }).click();
    await scanDialog(page, "Delete confirmation", found);

    expect(found).toEqual([]);
    await context.close();
  });

  it("can be used with the keyboard: visible focus on the recorder, dialogs trap focus", async () => {
    const { page, context } = await loggedInPage();
    await page.goto(`${server.url}/`);
    await page.getByRole("button", { name: `Edit ${memoryTitle}` }).waitFor();

    // Tab from the top of the page until the Start Recording button has focus.
    const focusedName = () =>
      page.evaluate(
        () =>
          document.activeElement?.getAttribute("aria-label") ??
          document.activeElement?.textContent?.trim() ??
          "",
      );
    let reached = false;
    for (let i = 0; i < 30 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = (await focusedName()) === MESSAGES.startRecording;
    }
    expect(reached).toBe(true);
    const focusStyle = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element);
      return { outline: style.outlineStyle, shadow: style.boxShadow };
    });
    expect(focusStyle.outline !== "none" || focusStyle.shadow !== "none").toBe(true);

    // On to the edit button, opened with Enter.
    let onEdit = false;
    for (let i = 0; i < 30 && !onEdit; i++) {
      await page.keyboard.press("Tab");
      onEdit = (await focusedName()) === `Edit ${memoryTitle}`;
    }
    expect(onEdit).toBe(true);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const focusInDialog = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest("[role=dialog]")));
    expect(await focusInDialog()).toBe(true);
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Tab");
      expect(await focusInDialog()).toBe(true);
    }
    await page.keyboard.press("Shift+Tab");
    expect(await focusInDialog()).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    // Focus returns to the edit button just after the dialog unmounts (the next task).
    await expect.poll(focusedName, { timeout: 5_000 }).toBe(`Edit ${memoryTitle}`);
    await context.close();
  });
});
