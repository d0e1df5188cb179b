import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import type { CreatedShareLink } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { newPage, unexpectedConsoleErrors } from "./harness";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/**
 * Records, from before the page's first paint, every time the top bar shows Log in, Sign up or
 * the watch view: a MutationObserver set up by an init script sees even a control shown for a frame.
 */
async function watchForAccountControls(page: Page): Promise<void> {
  await page.addInitScript(
    ({ names }) => {
      const seen: string[] = [];
      (window as unknown as { seenControls: string[] }).seenControls = seen;
      const look = () => {
        for (const element of document.querySelectorAll("header button, header a")) {
          const name = (element.textContent ?? "").trim();
          if (names.includes(name) && !seen.includes(name)) seen.push(name);
        }
      };
      new MutationObserver(look).observe(document, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    },
    { names: [MESSAGES.logIn, MESSAGES.signUp, MESSAGES.watchView] as string[] },
  );
}

describe("a relative's browser", () => {
  let journey: JourneySetup;
  let owner: ApiClient;
  let memory: Memory;
  const username = `teller${Date.now().toString(36)}`;

  beforeAll(async () => {
    journey = await startJourney({ name: "relative-top-bar" });
    owner = new ApiClient(journey.server.url);
    await owner.register(username);
    memory = await seedMemory(owner, {
      title: "The lighthouse",
      transcript: "We climbed all the steps of the lighthouse.",
      summary: "We climbed the lighthouse.",
      tags: ["sea"],
    });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("never shows Log in, Sign up or the watch view, even while the server is slow to say whose it is", async () => {
    const { server, browser } = journey;
    const created = await owner.json<CreatedShareLink>("POST", "/api/share-links", {
      label: "Grandpa",
    });
    expect(created.status).toBe(201);

    const { page, context, consoleErrors } = await newPage(browser, PHONE);
    await watchForAccountControls(page);
    // A slow answer to "whose memories do my links open" (a phone on a poor connection).
    await page.route("**/api/shared-with-me", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    // The link sets the share cookie; then the pages a QR code or a news mail opens.
    await page.goto(created.data.url);
    await page.getByText("The lighthouse").first().waitFor();
    for (const path of [`/memory/${memory.id}`, "/", `/profile/${username}`]) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId("relative-greeting").waitFor();
      // Past the slow answer, so a control shown once it came would be seen too.
      await page.waitForTimeout(1000);
    }
    expect(
      await page.evaluate(() => (window as unknown as { seenControls: string[] }).seenControls),
    ).toEqual([]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("a stranger's browser is offered Log in and Sign up from the first paint", async () => {
    const { server, browser } = journey;
    const { page, context, consoleErrors } = await newPage(browser, PHONE);
    let asked = false;
    page.on("request", (request) => {
      if (request.url().endsWith("/api/shared-with-me")) asked = true;
    });
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.logIn }).waitFor();
    await page.getByRole("button", { name: MESSAGES.signUp }).waitFor();
    // The page said this browser holds no share link: nothing more to ask.
    expect(asked).toBe(false);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
