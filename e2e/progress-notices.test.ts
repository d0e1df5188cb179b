import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFETTI_MS, PROGRESS_NOTICE_MIN_MS } from "../src/shared/constants";
import { MESSAGES } from "../src/shared/messages";
import { ApiClient } from "./api-client";
import { type JourneySetup, startJourney } from "./fixtures";
import { confettiSettled, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const PASSWORD = "a long enough password";

/** Every notice of spec 4's processing steps, in order. */
const STEPS = [
  MESSAGES.convertingToMp3,
  MESSAGES.uploading,
  MESSAGES.transcribing,
  MESSAGES.summarizing,
  MESSAGES.scoring,
  MESSAGES.tagging,
  MESSAGES.saving,
];

/** Timers and frames are not exact in a busy browser: what "at least the minimum" allows for. */
const SLACK_MS = 50;

interface Seen {
  notices: { text: string; at: number }[];
  canvasAdded: number | null;
  canvasRemoved: number | null;
  savedToastAt: number | null;
}

/**
 * Records in the page, as they happen, every text the recorder's notice line shows, when the
 * confetti canvas comes and goes, and when the 'Memory saved!' toast appears.
 */
async function watchScreen(page: Page): Promise<void> {
  await page.evaluate((savedText) => {
    const seen = { notices: [], canvasAdded: null, canvasRemoved: null, savedToastAt: null } as {
      notices: { text: string; at: number }[];
      canvasAdded: number | null;
      canvasRemoved: number | null;
      savedToastAt: number | null;
    };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    const status = document.querySelector('[data-testid="recorder"] [role="status"]');
    if (!status) throw new Error("no notice line");
    new MutationObserver(() => {
      const text = status.textContent ?? "";
      if (text !== seen.notices.at(-1)?.text) seen.notices.push({ text, at: performance.now() });
    }).observe(status, { childList: true, characterData: true, subtree: true });
    new MutationObserver((records) => {
      const now = performance.now();
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeName === "CANVAS" && record.target === document.body) {
            seen.canvasAdded ??= now;
          }
        }
        for (const node of record.removedNodes) {
          if (node.nodeName === "CANVAS" && record.target === document.body) {
            seen.canvasRemoved = now;
          }
        }
      }
      if (seen.savedToastAt === null && document.body.textContent?.includes(savedText)) {
        seen.savedToastAt = now;
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, MESSAGES.memorySaved);
}

describe("every progress notice reaches the screen, with a provider that answers at once", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let speechSeconds: number;

  beforeAll(async () => {
    // The default stub answers every call at once: the pipeline's stages take milliseconds.
    journey = await startJourney({
      name: "progress",
      speech: "We fed the ducks at the pond and one of them followed you home.",
    });
    ({ server, browser, speechSeconds } = journey);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("shows each step's notice in order, then 'Memory saved!' and about 2 seconds of confetti", async () => {
    const owner = `progress${Date.now()}`;
    await new ApiClient(server.url).register(owner, PASSWORD);
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    const login = page.getByRole("dialog", { name: MESSAGES.logIn });
    await login.getByLabel("Username").fill(owner);
    await login.getByLabel("Password").fill(PASSWORD);
    await login.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();

    await watchScreen(page);
    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();

    // A step's notice on screen, as a person sees it.
    await page
      .getByTestId("recorder")
      .getByRole("status")
      .getByText(MESSAGES.scoring)
      .waitFor({ timeout: 30_000 });
    await page.screenshot({
      path: path.join("test-results", "progress-notice-scoring.png"),
      animations: "disabled",
    });

    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: MESSAGES.startRecording }).waitFor({ timeout: 30_000 });
    await confettiSettled(page);
    const seen = await page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);

    // Every step, in order, then the line clears when the recorder is ready again.
    expect(seen.notices.map((n) => n.text)).toEqual([...STEPS, ""]);
    // Each stayed up for the minimum time before the next replaced it.
    for (let i = 0; i < seen.notices.length - 1; i++) {
      const shownFor = (seen.notices[i + 1]?.at ?? 0) - (seen.notices[i]?.at ?? 0);
      expect(shownFor, seen.notices[i]?.text).toBeGreaterThanOrEqual(
        PROGRESS_NOTICE_MIN_MS - SLACK_MS,
      );
    }
    // 'Memory saved!' follows 'Saving...' once it has had its time.
    const saving = seen.notices.find((n) => n.text === MESSAGES.saving)?.at ?? 0;
    expect(seen.savedToastAt).not.toBeNull();
    expect((seen.savedToastAt ?? 0) - saving).toBeGreaterThanOrEqual(
      PROGRESS_NOTICE_MIN_MS - SLACK_MS,
    );
    const memories = (await (await page.request.get(`${server.url}/api/memories`)).json()) as {
      items: { status: string }[];
    };
    expect(memories.items.map((memory) => memory.status)).toEqual(["saved"]);

    // Spec 9: confetti for about 2 seconds, its canvas gone after that.
    expect(seen.canvasAdded).not.toBeNull();
    expect(seen.canvasRemoved).not.toBeNull();
    const confettiMs = (seen.canvasRemoved ?? 0) - (seen.canvasAdded ?? 0);
    expect(confettiMs).toBeGreaterThanOrEqual(CONFETTI_MS - 300);
    expect(confettiMs).toBeLessThanOrEqual(CONFETTI_MS + 500);

    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("greets with 'Welcome back!' after logging in on the watch view", async () => {
    const watcher = `watchlogin${Date.now()}`;
    await new ApiClient(server.url).register(watcher, PASSWORD);
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(`${server.url}/watch`);
    await page.getByLabel("Username").fill(watcher);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByText(MESSAGES.welcomeBack, { exact: true }).waitFor();
    await page.getByTestId("watch-recorder-slot").waitFor();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
