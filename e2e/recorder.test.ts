import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, pendingRecordingsLabel } from "../src/shared/messages";
import { type JourneySetup, openAiEnv, startJourney } from "./fixtures";
import { newPage, type RunningServer, startServer, unexpectedConsoleErrors } from "./harness";
import { decodeMp3 } from "./mp3-page";

const SPEECH = "Today we went to the beach and built a big sandcastle together.";

async function audioFiles(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(path.join(dataDir, "audio"))).filter((name) => !name.startsWith("."));
  } catch {
    return [];
  }
}

async function waitForAudioFile(dataDir: string, count: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await audioFiles(dataDir);
    if (files.length >= count) return files;
    if (Date.now() > deadline) throw new Error(`No stored audio after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startRecording(page: Page): Promise<void> {
  await page.getByRole("button", { name: MESSAGES.startRecording }).click();
  await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
}

describe("recording in Chromium with a fake microphone", () => {
  let journey: JourneySetup;
  let speechSeconds: number;
  let browser: Browser;
  let server: RunningServer;
  let aiEnv: Record<string, string> = {};

  beforeAll(async () => {
    // Recording is under test here, not speech recognition: a quick provider keeps the
    // recorder's wait for processing short on a busy machine.
    journey = await startJourney({ name: "recorder", speech: SPEECH });
    ({ speechSeconds, browser, server } = journey);
    aiEnv = openAiEnv(journey.stub);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("records, converts to MP3 in the browser and stores an MP3 of the spoken length", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(server.url);
    const before = (await audioFiles(server.dataDir)).length;
    await startRecording(page);
    expect(await page.getByTestId("audio-visualiser").getAttribute("data-active")).toBe("true");
    const started = Date.now();
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    const recordedSeconds = (Date.now() - started) / 1000;

    const files = await waitForAudioFile(server.dataDir, before + 1);
    const stored = files.find((name) => name.endsWith(".mp3"));
    expect(stored, `stored files: ${files.join(", ")}`).toBeDefined();
    const bytes = await readFile(path.join(server.dataDir, "audio", stored ?? ""));
    const decoded = await decodeMp3(new Uint8Array(bytes));
    expect(decoded.seconds).toBeGreaterThan(speechSeconds);
    expect(decoded.seconds).toBeLessThan(recordedSeconds + 1);
    // 128 kbps mono: about 16 KB per second.
    expect(bytes.length / decoded.seconds).toBeGreaterThan(14_000);
    expect(bytes.length / decoded.seconds).toBeLessThan(18_000);
    // The speech is there, not silence.
    expect(decoded.rms).toBeGreaterThan(0.005);

    // Logged out: the save-account dialog follows the save; closing it leaves the recorder idle.
    const saveAccount = page.getByRole("dialog");
    await saveAccount.waitFor({ timeout: 60_000 });
    await saveAccount.getByRole("button", { name: MESSAGES.cancel }).click();
    await saveAccount.waitFor({ state: "detached" });
    await page.getByRole("button", { name: MESSAGES.startRecording }).waitFor();
    expect(await page.getByTestId("audio-visualiser").getAttribute("data-active")).toBe("false");
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("pauses and resumes at a phone's size: the time stands still while paused", async () => {
    const { page, context, consoleErrors } = await newPage(browser, {
      viewport: { width: 390, height: 844 },
    });
    await page.goto(server.url);
    await startRecording(page);
    const timer = page.getByRole("timer", { name: MESSAGES.recordingTime });
    await timer.filter({ hasText: "0:01" }).waitFor();
    const pause = page.getByRole("button", { name: MESSAGES.pauseRecording });
    const box = await pause.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44 - 0.5);
    await pause.click();
    const visualiser = page.getByTestId("audio-visualiser");
    expect(await visualiser.getAttribute("data-paused")).toBe("true");
    await page.getByText(MESSAGES.recordingPaused, { exact: true }).waitFor();
    const held = await timer.textContent();
    // Time passes; the shown time does not.
    await page.waitForTimeout(2000);
    expect(await timer.textContent()).toBe(held);

    await page.getByRole("button", { name: MESSAGES.resumeRecording }).click();
    expect(await visualiser.getAttribute("data-paused")).toBe("false");
    await page.waitForFunction(
      ([label, before]) =>
        document.querySelector(`[role=timer][aria-label="${label}"]`)?.textContent !== before,
      [MESSAGES.recordingTime, held] as const,
    );
    await page.getByRole("button", { name: MESSAGES.cancelRecording }).click();
    await page.getByRole("button", { name: MESSAGES.startRecording }).waitFor();
    expect(await timer.count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("cancelling uploads nothing", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/upload")) uploads.push(request.url());
    });
    await page.goto(server.url);
    const before = await audioFiles(server.dataDir);
    await startRecording(page);
    await page.waitForTimeout(1500);
    await page.getByRole("button", { name: MESSAGES.cancelRecording }).click();
    await page.getByRole("button", { name: MESSAGES.startRecording }).waitFor();
    await page.waitForTimeout(1000);
    expect(uploads).toEqual([]);
    expect(await audioFiles(server.dataDir)).toEqual(before);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("keeps a recording whose upload failed and uploads it on the next visit", async () => {
    const flaky = await startServer(aiEnv);
    let restarted: RunningServer | undefined;
    try {
      const { page, context } = await newPage(browser);
      await page.goto(flaky.url);
      await startRecording(page);
      await page.waitForTimeout(2500);
      await flaky.stop();
      await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
      await page.getByRole("status").getByText(MESSAGES.recordingKeptOnDevice).waitFor();
      await page.getByText(pendingRecordingsLabel(1)).waitFor();
      // A calm note that the recording is safe: no red error box, no "Failed to upload audio".
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await page.getByText(MESSAGES.failedUploadAudio).count()).toBe(0);
      expect(await audioFiles(flaky.dataDir)).toEqual([]);
      // The tab is closed while the server is down.
      await page.close();

      restarted = await startServer(aiEnv, { dataDir: flaky.dataDir, port: flaky.port });
      const next = await context.newPage();
      await next.goto(restarted.url);
      const files = await waitForAudioFile(flaky.dataDir, 1);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.mp3$/);
      await next.getByTestId("pending-recordings").waitFor({ state: "detached" });
      const bytes = await readFile(path.join(flaky.dataDir, "audio", files[0] ?? ""));
      const decoded = await decodeMp3(new Uint8Array(bytes));
      expect(decoded.seconds).toBeGreaterThan(2);
      // It was uploaded once, not once per retry.
      await next.waitForTimeout(1000);
      expect(await audioFiles(flaky.dataDir)).toHaveLength(1);
      await context.close();
    } finally {
      await restarted?.stop();
      await flaky.cleanup();
    }
  });
});
