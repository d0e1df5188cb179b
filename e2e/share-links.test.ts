import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { SHARE_MESSAGES } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage, unexpectedConsoleErrors } from "./harness";

const COMMENT_TEXT = "Hello sweetheart, Grandma loves this one.";

describe("a private profile shared with Grandma by link", () => {
  let journey: JourneySetup;
  let parent: ApiClient;
  let memory: Memory;
  const username = `parent${Date.now().toString(36)}`;

  beforeAll(async () => {
    journey = await startJourney({
      name: "share-links",
      speech: COMMENT_TEXT,
      stub: (request) =>
        request.path.endsWith("/audio/transcriptions")
          ? { body: { text: COMMENT_TEXT } }
          : { status: 500, body: { error: { message: "not used" } } },
    });
    parent = new ApiClient(journey.server.url);
    await parent.register(username);
    memory = await seedMemory(parent, {
      title: "Mia's first swim",
      transcript: "You swam all the way to me.",
      summary: "Mia's first swim. You swam all the way to me.",
      tags: ["swimming"],
    });
  });
  afterAll(async () => {
    await journey?.close();
  });

  const shot = (page: Page, name: string) =>
    page.screenshot({
      path: path.join("test-results", name),
      fullPage: true,
      animations: "disabled",
    });

  async function openUserMenu(page: Page) {
    await page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await page.getByRole("menu").waitFor();
  }

  it("makes the profile private, shares it, Grandma listens and comments, then the link is revoked", async () => {
    const { server, browser } = journey;
    // The parent's browser, signed in.
    const parentTab = await newPage(browser);
    await addClientCookies(parentTab.context, server.url, parent.cookieHeader());
    const page = parentTab.page;
    await page.goto(`${server.url}/profile/${username}`);
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.makeProfilePrivate }).click();
    await page.getByText(MESSAGES.profileNowPrivate).first().waitFor();

    await openUserMenu(page);
    await page.getByRole("menuitem", { name: MESSAGES.shareProfile }).click();
    const dialog = page.getByRole("dialog", { name: SHARE_MESSAGES.dialogTitle });
    await dialog.getByLabel(SHARE_MESSAGES.labelField).fill("Grandma");
    await dialog.getByRole("button", { name: SHARE_MESSAGES.create }).click();
    const created = dialog.getByTestId("created-share-link");
    await created.waitFor();
    const link = await created.getByRole("textbox").inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{43}$`));
    await shot(page, "share-link-dialog.png");
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    // Without the link the profile is not there for anyone else.
    const stranger = await newPage(browser);
    await stranger.page.goto(`${server.url}/profile/${username}`);
    await stranger.page.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    await stranger.context.close();

    // Grandma's browser has never been here: the link takes her to the profile.
    const grandma = await newPage(browser);
    const gPage = grandma.page;
    const referers: string[] = [];
    gPage.on("request", (request) => {
      const referer = request.headers().referer;
      if (referer) referers.push(referer);
    });
    await gPage.goto(link);
    expect(new URL(gPage.url()).pathname).toBe(`/profile/${username}`);
    await gPage.getByText("Mia's first swim").first().click();
    await gPage.waitForURL(`**/memory/${memory.id}`);

    // She plays the memory.
    await gPage.getByRole("button", { name: MESSAGES.play }).first().click();
    await gPage.getByRole("button", { name: MESSAGES.pause }).first().waitFor();
    await gPage.waitForFunction(() => (document.querySelector("audio")?.currentTime ?? 0) > 0.2);

    // And leaves a spoken comment under her name.
    const card = gPage.getByTestId("comments-card");
    await card.getByLabel(MESSAGES.yourName).fill("Grandma");
    await card.getByRole("button", { name: MESSAGES.startRecording }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await gPage.waitForTimeout(3000);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await gPage.getByText(MESSAGES.commentAdded).first().waitFor({ timeout: 60_000 });
    const comment = card.getByTestId("comment");
    await comment.getByText("Grandma").first().waitFor();
    await comment.getByText(COMMENT_TEXT).waitFor({ timeout: 30_000 });
    await shot(gPage, "share-link-grandma.png");
    // The token never travelled on in a Referer.
    const token = new URL(link).pathname.slice(3);
    expect(referers.filter((r) => r.includes(token))).toEqual([]);

    // The parent sees the link was used, and revokes it on the account page.
    await page.goto(`${server.url}/account`);
    const row = page.getByTestId("share-link").filter({ hasText: "Grandma" });
    await row.getByText(`${SHARE_MESSAGES.visits}: 1`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole("button", { name: `${SHARE_MESSAGES.revoke} Grandma` }).click();
    const confirm = page.getByRole("dialog", { name: SHARE_MESSAGES.revokeTitle });
    await confirm.getByRole("button", { name: SHARE_MESSAGES.revoke }).click();
    await page.getByText(SHARE_MESSAGES.revoked).first().waitFor();
    await page.getByText(SHARE_MESSAGES.none).waitFor();
    await shot(page, "share-links-account.png");

    // Grandma's next visit: gone, exactly like a profile that does not exist.
    await gPage.goto(`${server.url}/profile/${username}`);
    await gPage.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    await gPage.goto(link);
    await gPage.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    expect(unexpectedConsoleErrors(grandma.consoleErrors)).toEqual([]);
    expect(unexpectedConsoleErrors(parentTab.consoleErrors)).toEqual([]);
    await grandma.context.close();
    await parentTab.context.close();
  });
});
