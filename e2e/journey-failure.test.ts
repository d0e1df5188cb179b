import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultStubHandler,
  type OpenAiStub,
  type StubHandler,
} from "../src/server/test/openai-stub";
import { MESSAGES } from "../src/shared/messages";
import { type JourneySetup, startJourney } from "./fixtures";
import { newPage, type RunningServer } from "./harness";

/** The summary step fails (HTTP 500) until the provider "recovers". */
const summaryDown: StubHandler = (request) => {
  const json = request.json ?? {};
  if (request.path.endsWith("/chat/completions") && json.response_format === undefined) {
    return { status: 500, body: { error: { message: "model overloaded" } } };
  }
  return defaultStubHandler(request);
};

describe("journey 6: processing fails, the audio is kept, the provider recovers, retry completes", () => {
  let journey: JourneySetup;
  let stub: OpenAiStub;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    journey = await startJourney({
      name: "failure",
      speech: "Today you took your first steps in the garden.",
      stub: summaryDown,
      env: { OPENAI_MAX_RETRIES: "0" },
    });
    ({ stub, server, browser } = journey);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("shows the failure with playable audio, then retry saves the memory", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const registered = await page.request.post(`${server.url}/api/register`, {
      data: {
        username: "failure_journey",
        password: "a long enough password",
        email: "f@example.com",
      },
    });
    expect(registered.status()).toBe(201);
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(3500);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();

    await page
      .getByText(MESSAGES.processingFailed, { exact: true })
      .first()
      .waitFor({ timeout: 60_000 });
    await page
      .getByText(/^Failed to summarize memory: /)
      .first()
      .waitFor();
    // Nothing is left waiting in the browser: the server has the recording and the failed memory.
    await page.getByRole("button", { name: "Retry" }).first().waitFor();

    const memories = (await (await page.request.get(`${server.url}/api/memories`)).json()) as {
      items: { id: string; status: string; stage: string; audioUrl: string }[];
    };
    expect(memories.items).toHaveLength(1);
    const failed = memories.items[0];
    expect(failed).toMatchObject({ status: "failed", stage: "summarize" });
    const audio = await page.request.get(`${server.url}${failed?.audioUrl}`);
    expect(audio.status()).toBe(200);
    expect(audio.headers()["content-type"]).toBe("audio/mpeg");
    expect((await audio.body()).byteLength).toBeGreaterThan(10_000);

    await page.goto(`${server.url}/memory/${failed?.id}`);
    await page
      .getByText(/^Failed to summarize memory: /)
      .first()
      .waitFor();
    await page.getByRole("button", { name: "Play" }).click();
    await page.waitForFunction(() => {
      const element = document.querySelector("audio");
      return element !== null && !element.paused && element.currentTime > 0;
    });
    await page.getByRole("button", { name: "Pause" }).click();

    stub.handle(defaultStubHandler);
    await page.getByRole("button", { name: "Retry" }).click();
    await page
      .getByRole("heading", { name: "I will always remember our day at the beach with Grandpa." })
      .waitFor({ timeout: 60_000 });
    const saved = await (await page.request.get(`${server.url}/api/memories/${failed?.id}`)).json();
    expect(saved).toMatchObject({ status: "saved", tags: ["beach day", "grandpa", "sandcastle"] });
    // Only the failed stage and the ones after it ran again: one transcription in all.
    expect(stub.requests.filter((r) => r.path.endsWith("/audio/transcriptions"))).toHaveLength(1);
    await page.screenshot({
      path: path.join("test-results", "journey-6-failure-retry.png"),
      fullPage: true,
    });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
