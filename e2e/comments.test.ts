import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenAiStub } from "../src/server/test/openai-stub";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { newPage, type RunningServer } from "./harness";

describe("a visitor leaves a spoken comment", () => {
  let journey: JourneySetup;
  let stub: OpenAiStub;
  let server: RunningServer;
  let browser: Browser;
  let memory: Memory;

  beforeAll(async () => {
    journey = await startJourney({
      name: "comments",
      speech: "What a wonderful memory, I love you.",
      stub: (request) =>
        request.path.endsWith("/audio/transcriptions")
          ? { body: { text: "What a wonderful memory, I love you." } }
          : { status: 500, body: { error: { message: "not used" } } },
    });
    ({ stub, server, browser } = journey);
    const owner = new ApiClient(server.url);
    await owner.register("comment_owner");
    memory = await seedMemory(owner, {
      title: "Our first snow day",
      transcript: "It snowed all night.",
      summary: "Our first snow day. You laughed so much.",
      tags: ["snow"],
    });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("is refused without a name, then records, and sees the comment and the count", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(`${server.url}/memory/${memory.id}`);
    const card = page.getByTestId("comments-card");
    await card.getByRole("heading", { name: MESSAGES.noComments }).waitFor();

    await card.getByRole("button", { name: MESSAGES.answerWithVoice }).click();
    await page.getByText(MESSAGES.nameRequiredDescription).first().waitFor();
    await page.getByText(MESSAGES.nameRequired, { exact: true }).first().waitFor();
    expect(await card.getByRole("button", { name: MESSAGES.stopRecording }).count()).toBe(0);

    await card.getByLabel(MESSAGES.yourName).fill("Grandma Rose");
    await card.getByRole("button", { name: MESSAGES.answerWithVoice }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(3000);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();

    await page.getByText(MESSAGES.commentAdded).first().waitFor({ timeout: 60_000 });
    await card.getByRole("heading", { name: MESSAGES.oneComment }).waitFor();
    const comment = card.getByTestId("comment");
    await comment.getByText("Grandma Rose").waitFor();
    await comment.getByText("What a wonderful memory, I love you.").waitFor({ timeout: 30_000 });
    expect(consoleErrors.filter((e) => !e.includes("401"))).toEqual([]);

    const transcription = stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(transcription?.form?.file?.type).toBe("audio/mpeg");
    await page.screenshot({
      path: path.join("test-results", "comments-journey.png"),
      fullPage: true,
    });
    await context.close();
  });
});
