import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { MESSAGES } from "../src/shared/messages";
import { pauseMemoryLabel, playMemoryLabel, RELATIVES } from "../src/shared/relatives";
import type { Memory } from "../src/shared/schemas";
import { SHARE_MESSAGES } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage, unexpectedConsoleErrors } from "./harness";

const COMMENT_TEXT = "Hello sweetheart, Grandma loves this one.";

describe("a private profile shared with Grandma by link", () => {
  let journey: JourneySetup;
  let sink: SmtpSink;
  let parent: ApiClient;
  let memory: Memory;
  const username = `parent${Date.now().toString(36)}`;

  beforeAll(async () => {
    sink = await startSmtpSink();
    journey = await startJourney({
      name: "share-links",
      env: { SMTP_URL: sink.url },
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
    await sink?.close();
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
    // A welcome: who shared it, that she can listen and answer by voice; no Log in or Sign up.
    const welcome = gPage.getByTestId("shared-welcome");
    await welcome.getByText(RELATIVES.welcomeAnswer).waitFor();
    expect(await gPage.getByRole("button", { name: MESSAGES.logIn }).count()).toBe(0);
    expect(await gPage.getByRole("button", { name: MESSAGES.signUp }).count()).toBe(0);
    expect(await seriousViolations(gPage)).toEqual([]);
    // She plays a memory in place, from the list.
    const playInPlace = gPage.getByRole("button", {
      name: playMemoryLabel("Mia's first swim"),
    });
    await playInPlace.click();
    await gPage.getByRole("button", { name: pauseMemoryLabel("Mia's first swim") }).click();
    await shot(gPage, "share-link-welcome.png");
    await gPage.getByText("Mia's first swim").first().click();
    await gPage.waitForURL(`**/memory/${memory.id}`);

    // She plays the memory.
    await gPage.getByRole("button", { name: MESSAGES.play }).first().click();
    await gPage.getByRole("button", { name: MESSAGES.pause }).first().waitFor();
    await gPage.waitForFunction(() => (document.querySelector("audio")?.currentTime ?? 0) > 0.2);

    // And leaves a spoken comment under her name.
    const card = gPage.getByTestId("comments-card");
    await card.getByLabel(MESSAGES.yourName).fill("Grandma");
    await card.getByRole("button", { name: MESSAGES.answerWithVoice }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await gPage.waitForTimeout(3000);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await gPage.getByText(MESSAGES.commentAdded).first().waitFor({ timeout: 60_000 });
    const comment = card.getByTestId("comment");
    await comment.getByText("Grandma").first().waitFor();
    await comment.getByText(COMMENT_TEXT).waitFor({ timeout: 30_000 });
    await shot(gPage, "share-link-grandma.png");
    // Opened afresh on the memory itself (as from a memory book's QR code or a news mail), the page
    // greets her, offers no Log in, Sign up or watch view, and knows her name for the next answer.
    await gPage.goto(`${server.url}/memory/${memory.id}`);
    const greeting = gPage.getByTestId("relative-greeting");
    await greeting.waitFor();
    expect(await greeting.textContent()).toMatch(/^Welcome, you are listening to .+'s memories$/);
    expect(await gPage.getByRole("button", { name: MESSAGES.logIn }).count()).toBe(0);
    expect(await gPage.getByRole("button", { name: MESSAGES.signUp }).count()).toBe(0);
    expect(await gPage.getByRole("link", { name: MESSAGES.watchView }).count()).toBe(0);
    await expect
      .poll(() => gPage.getByTestId("comments-card").getByLabel(MESSAGES.yourName).inputValue())
      .toBe("Grandma");
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

  it("shows a new link at the address its mail holds, whatever name the page is open at", async () => {
    const { server, browser } = journey;
    // The journal opened at another name for this machine than its APP_URL (127.0.0.1).
    const elsewhere = server.url.replace("127.0.0.1", "localhost");
    const { page, context, consoleErrors } = await newPage(browser);
    await addClientCookies(context, elsewhere, parent.cookieHeader());
    await page.goto(`${elsewhere}/account`);
    const region = page.getByRole("region", { name: SHARE_MESSAGES.sectionTitle });
    await region.getByLabel(SHARE_MESSAGES.labelField).fill("Aunt May");
    await region.getByLabel(SHARE_MESSAGES.emailField).fill("may@example.org");
    await region.getByRole("button", { name: SHARE_MESSAGES.create }).click();
    const shown = await region.getByTestId("created-share-link").getByRole("textbox").inputValue();
    expect(shown).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{43}$`));
    const mail = await sink.waitFor((m) => m.to.includes("may@example.org"));
    expect(mail.text.split(/\r?\n/)).toContain(shown);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
