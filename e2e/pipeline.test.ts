import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultStubHandler, type OpenAiStub } from "../src/server/test/openai-stub";
import { MESSAGES } from "../src/shared/messages";
import { seriousViolations } from "./axe";
import { type JourneySetup, startJourney } from "./fixtures";
import { confettiSettled, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const SPEECH = "Today we went to the beach with grandpa and you built a sandcastle.";

/** Every notice the person sees from Stop to saved, in order (spec 4). */
const NOTICES = [
  MESSAGES.convertingToMp3,
  MESSAGES.uploading,
  MESSAGES.transcribing,
  MESSAGES.summarizing,
  MESSAGES.scoring,
  MESSAGES.tagging,
  MESSAGES.saving,
];

describe("from recording to a claimed memory in Chromium", () => {
  let journey: JourneySetup;
  let browser: Browser;
  let server: RunningServer;
  let stub: OpenAiStub;

  beforeAll(async () => {
    // The AI provider is a local OpenAI-compatible server; each call takes a moment, as real ones
    // do, so the browser's once-a-second polling sees every stage.
    journey = await startJourney({
      name: "pipeline",
      speech: SPEECH,
      stub: async (request) => ({ ...(await defaultStubHandler(request)), delayMs: 1500 }),
    });
    ({ browser, server, stub } = journey);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("shows each step, saves, offers an account, and the new account owns the memory", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    // Record every progress notice as it appears, however briefly.
    await page.addInitScript((notices: string[]) => {
      const seen: string[] = [];
      (window as unknown as { __notices: string[] }).__notices = seen;
      const check = () => {
        const text = document.body?.textContent ?? "";
        for (const notice of notices) {
          if (text.includes(notice) && seen.at(-1) !== notice) seen.push(notice);
        }
      };
      new MutationObserver(check).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    }, NOTICES);
    await page.goto(server.url);

    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(4500);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();

    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(
      () => (window as unknown as { __notices: string[] }).__notices,
    );
    expect(seen.filter((notice, i) => seen.indexOf(notice) === i)).toEqual(NOTICES);

    // Logged out: the save-account dialog; the account is created and claims the memory.
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel("Username").fill("grandma_rose");
    await dialog.getByLabel("Password").fill("sandcastle-2026");
    await dialog.getByRole("button", { name: "Save Account" }).click();
    await page.getByText(MESSAGES.accountSaved, { exact: true }).waitFor({ timeout: 30_000 });
    await dialog.waitFor({ state: "detached" });

    // The memory is in the new account's list, with the title from the summary's first sentence.
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await page.getByText("I will always remember our day at the beach with Grandpa.").waitFor();
    const memories = await page.evaluate(async () => {
      const res = await fetch("/api/memories", { credentials: "include" });
      return (await res.json()) as {
        items: { user_id: string | null; status: string; tags: string[] }[];
      };
    });
    const user = await page.evaluate(
      async () => (await (await fetch("/api/user")).json()) as { id: string; isPublic: boolean },
    );
    expect(user.isPublic).toBe(false);
    expect(memories.items).toHaveLength(1);
    expect(memories.items[0]).toMatchObject({
      user_id: user.id,
      status: "saved",
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    // The audio went to the provider as an MP3 made in the browser.
    const transcription = stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(transcription?.form?.file?.type).toBe("audio/mpeg");

    // End state: signed in as the new account, the claimed memory in its list.
    await page
      .getByRole("list", { name: "Memories" })
      .getByRole("link", { name: /I will always remember our day at the beach with Grandpa\./ })
      .waitFor();
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    await confettiSettled(page);
    await page.screenshot({
      path: path.join("test-results", "journey-1-anonymous.png"),
      fullPage: true,
      animations: "disabled",
    });
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
