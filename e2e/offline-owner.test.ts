import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage } from "./harness";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const OWNER = "offline_owner";

/** Fetch failures while the browser is offline are the point here. */
function unexpected(errors: string[]): string[] {
  return errors.filter(
    (text) =>
      !/net::ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(text) &&
      !/^Failed to load resource: the server responded with a status of 40[14]\b/.test(text),
  );
}

describe("the installed app opened with no connection", () => {
  let journey: JourneySetup;
  let owner: ApiClient;

  beforeAll(async () => {
    journey = await startJourney({ name: "offline-owner" });
    owner = new ApiClient(journey.server.url);
    await owner.register(OWNER);
    for (const title of ["Grandpa's boat", "The snow day"]) {
      await seedMemory(owner, { title, transcript: `${title}.`, summary: `${title}.`, tags: [] });
    }
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("shows the owner's menu and the memories seen last, with a calm note, then catches up", async () => {
    const { server, browser } = journey;
    const { page, context, consoleErrors } = await newPage(browser, PHONE);
    await addClientCookies(context, server.url, owner.cookieHeader());
    // A first visit online: the service worker installs and the home page lists the memories.
    await page.goto(server.url);
    const list = page.getByRole("list", { name: "Memories" });
    await list.getByText("The snow day").waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    expect(await page.getByTestId("offline-note").count()).toBe(0);

    // No connection: the app opens from its cache, as the same owner, with what they saw.
    await context.setOffline(true);
    const response = await page.reload();
    expect(response?.fromServiceWorker()).toBe(true);
    await page.getByTestId("offline-note").getByText(MESSAGES.youAreOffline).waitFor();
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    await list.getByText("The snow day").waitFor();
    await list.getByText("Grandpa's boat").waitFor();
    expect(await page.getByRole("button", { name: MESSAGES.logIn }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join("test-results", "offline-owner-phone.png"),
      animations: "disabled",
    });

    // A memory recorded elsewhere meanwhile appears once the connection returns.
    await seedMemory(owner, {
      title: "Back online",
      transcript: "Back online.",
      summary: "Back online.",
      tags: [],
    });
    await context.setOffline(false);
    await list.getByText("Back online").waitFor();
    await page.getByTestId("offline-note").waitFor({ state: "detached" });
    expect(unexpected(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("forgets the account on this device once its owner logged out", async () => {
    const { server, browser } = journey;
    const { page, context } = await newPage(browser, PHONE);
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(server.url);
    await page.getByRole("list", { name: "Memories" }).getByText("The snow day").waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await page.getByRole("menuitem", { name: MESSAGES.logOut }).click();
    await page.getByRole("button", { name: MESSAGES.logIn }).waitFor();
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId("offline-note").waitFor();
    expect(await page.getByRole("button", { name: MESSAGES.userMenu }).count()).toBe(0);
    expect(await page.getByText("The snow day").count()).toBe(0);
    await context.close();
  });
});
