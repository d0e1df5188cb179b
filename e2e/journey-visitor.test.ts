import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const OWNER = "journey_owner";
const COMMENT_TEXT = "That picnic was the best day of the summer.";

/** A visitor on a public profile, then the same visitor once it is private. */
describe("journey 3: a visitor on a profile that becomes private", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let picnic: Memory;

  beforeAll(async () => {
    journey = await startJourney({
      name: "journey3",
      speech: COMMENT_TEXT,
      stub: (request) =>
        request.path.endsWith("/audio/transcriptions")
          ? { body: { text: COMMENT_TEXT } }
          : { status: 500, body: { error: { message: "not used" } } },
    });
    ({ server, browser } = journey);
    const owner = new ApiClient(server.url);
    await owner.register(OWNER);
    await seedMemory(owner, {
      title: "Our first snow day",
      transcript: "It snowed all night and we built a snowman.",
      summary: "Our first snow day.",
    });
    picnic = await seedMemory(owner, {
      title: "Beach picnic in July",
      transcript: "We ate sandwiches by the sea.",
      summary: "Beach picnic in July.",
    });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("searches, opens and comments on a public memory, then loses it all when the profile goes private", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(`${server.url}/profile/${OWNER}`);
    await page.getByRole("heading", { name: `${OWNER}'s Memories` }).waitFor();
    const list = page.getByRole("list", { name: "Memories" });
    await list.getByText("Our first snow day").waitFor();
    await list.getByText("Beach picnic in July").waitFor();

    await page.getByRole("searchbox", { name: MESSAGES.searchTheseMemories }).fill("picnic");
    await expect.poll(() => list.getByRole("listitem").count(), { timeout: 10_000 }).toBe(1);
    await list.getByText("Beach picnic in July").waitFor();
    expect(await list.getByText("Our first snow day").count()).toBe(0);

    await list.getByRole("link", { name: /Beach picnic in July/ }).click();
    // A search's result opens at the sentence that matched (?q=picnic).
    await page.waitForURL(`**/memory/${picnic.id}?q=picnic`);
    await page.getByRole("heading", { name: "Beach picnic in July" }).first().waitFor();

    const card = page.getByTestId("comments-card");
    await card.getByLabel(MESSAGES.yourName).fill("Cousin Sam");
    await card.getByRole("button", { name: MESSAGES.answerWithVoice }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(3000);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page.getByText(MESSAGES.commentAdded).first().waitFor({ timeout: 60_000 });
    await card.getByTestId("comment").getByText("Cousin Sam").waitFor();

    // The owner, in their own browser, makes the profile private from the user menu.
    const ownerSession = await newPage(browser);
    const login = await ownerSession.page.request.post(`${server.url}/api/login`, {
      data: { username: OWNER, password: "a long enough password" },
    });
    expect(login.status()).toBe(200);
    await ownerSession.page.goto(`${server.url}/`);
    await ownerSession.page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await ownerSession.page.getByRole("menuitem", { name: MESSAGES.makeProfilePrivate }).click();
    await ownerSession.page.getByText(MESSAGES.profileNowPrivate).first().waitFor();
    const me = await ownerSession.page.request.get(`${server.url}/api/user`);
    expect(((await me.json()) as { isPublic: boolean }).isPublic).toBe(false);
    expect(unexpectedConsoleErrors(ownerSession.consoleErrors)).toEqual([]);
    await ownerSession.context.close();

    await page.goto(`${server.url}/profile/${OWNER}`);
    await page.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    expect(await page.getByText("Beach picnic in July").count()).toBe(0);

    const statuses = await page.evaluate(
      async ([id, audioUrl]) => {
        const memory = await fetch(`/api/memories/${id}`);
        const audio = await fetch(audioUrl as string);
        return [memory.status, audio.status];
      },
      [picnic.id, picnic.audioUrl],
    );
    expect(statuses).toEqual([404, 404]);

    await page.goto(`${server.url}/memory/${picnic.id}`);
    await page.getByText(MESSAGES.notFoundPage).waitFor();
    expect(await page.getByText("Beach picnic in July").count()).toBe(0);
    await page.screenshot({
      path: path.join("test-results", "journey-3-visitor.png"),
      fullPage: true,
    });
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
