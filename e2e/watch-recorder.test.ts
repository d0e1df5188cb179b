import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import { type JourneySetup, startJourney } from "./fixtures";
import { confettiSettled, launchBrowser, newPage, type RunningServer } from "./harness";

/** Signs this browser context up (and so in) through the app's own API. */
async function signUp(page: Page, username: string): Promise<void> {
  const status = await page.evaluate(async (name) => {
    const res = await fetch("/api/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: name, password: "a long enough password", isPublic: true }),
      credentials: "include",
    });
    return res.status;
  }, username);
  expect([200, 201]).toContain(status);
}

describe("the watch view's recorder in Chromium", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let granted: Browser;
  let denied: Browser;

  beforeAll(async () => {
    // A quick provider: the watch view's recording is under test, not speech recognition.
    journey = await startJourney({ name: "watch", speech: "Good night, sleep tight." });
    ({ server, browser: granted } = journey);
    // A fake device but no automatic permission: headless Chromium refuses the microphone.
    denied = await launchBrowser(["--use-fake-device-for-media-stream"]);
  });
  afterAll(async () => {
    await denied?.close();
    await journey?.close();
  });

  it("records and uploads from the watch view when logged in", async () => {
    const { page, context } = await newPage(granted);
    await page.goto(server.url);
    await signUp(page, `watcher${Date.now()}`);
    await page.goto(`${server.url}/watch`);
    const slot = page.getByTestId("watch-recorder-slot");
    // The one-tap button is a circle: its corner radius is at least half its width.
    const shape = await slot
      .getByRole("button", { name: MESSAGES.startRecording })
      .evaluate((el) => ({
        width: el.getBoundingClientRect().width,
        radius: Number.parseFloat(getComputedStyle(el).borderTopLeftRadius),
      }));
    expect(shape.radius).toBeGreaterThanOrEqual(shape.width / 2);
    await slot.getByRole("button", { name: MESSAGES.startRecording }).click();
    await slot.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(2500);
    await slot.getByRole("button", { name: MESSAGES.stopRecording }).click();
    const deadline = Date.now() + 60_000;
    let files: string[] = [];
    while (files.length === 0 && Date.now() < deadline) {
      files = await readdir(path.join(server.dataDir, "audio")).catch(() => []);
      files = files.filter((f) => f.endsWith(".mp3"));
      await page.waitForTimeout(200);
    }
    expect(files).toHaveLength(1);

    // End state: saved, and the watch is ready for the next one.
    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    await slot.getByRole("button", { name: MESSAGES.startRecording }).waitFor({ timeout: 30_000 });
    await page.getByRole("heading", { name: MESSAGES.watchTitle }).waitFor();
    const memories = (await (await page.request.get(`${server.url}/api/memories`)).json()) as {
      items: { status: string }[];
    };
    expect(memories.items.map((memory) => memory.status)).toEqual(["saved"]);
    await confettiSettled(page);
    await page.screenshot({
      path: path.join("test-results", "journey-5-watch.png"),
      fullPage: true,
      animations: "disabled",
    });
    await context.close();
  });

  it("shows 'Microphone Error' when the microphone is refused", async () => {
    const { page, context } = await newPage(denied);
    await page.goto(server.url);
    await signUp(page, `denied${Date.now()}`);
    await page.goto(`${server.url}/watch`);
    await page
      .getByTestId("watch-recorder-slot")
      .getByRole("button", { name: MESSAGES.startRecording })
      .click();
    await page.getByText(MESSAGES.microphoneError, { exact: true }).waitFor();
    await page.getByText(MESSAGES.microphoneErrorDescription, { exact: true }).waitFor();
    await page.getByRole("alert").getByText(MESSAGES.microphoneDenied).waitFor();
    await context.close();
  });
});
