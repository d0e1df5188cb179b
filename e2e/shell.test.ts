import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import {
  launchBrowser,
  newPage,
  type RunningServer,
  startServer,
  unexpectedConsoleErrors,
} from "./harness";

describe("the web app shell in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it("renders the home page with the header line, top bar and footer, with no console errors", async () => {
    const { page, consoleErrors, context } = await newPage(browser);
    await page.goto(server.url);
    // The first screen renders as a transition after the main script (ADR 0032), which may end
    // after the load event: wait for the heading rather than look once.
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    await page.getByRole("contentinfo").getByText("Coming soon").waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(1);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("shows the 404 page on an unknown path", async () => {
    const { page, consoleErrors, context } = await newPage(browser);
    await page.goto(`${server.url}/no/such/page`);
    await page.getByText(MESSAGES.notFoundPage, { exact: true }).waitFor();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("opens every route, with the top bar on all but /watch", async () => {
    const { page, consoleErrors, context } = await newPage(browser);
    for (const route of ["/", "/memory/abc", "/reset-password", "/profile/someone"]) {
      await page.goto(`${server.url}${route}`);
      await page.getByRole("navigation", { name: "Main" }).waitFor();
    }
    await page.goto(`${server.url}/reset-password`);
    await page.getByText(MESSAGES.invalidResetLink).waitFor();
    await page.goto(`${server.url}/watch`);
    await page.getByText(MESSAGES.watchTitle).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    await page.getByRole("link", { name: MESSAGES.backToFullApp }).click();
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
