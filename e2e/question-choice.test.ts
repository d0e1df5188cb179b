import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import { REMINDER_MESSAGES } from "../src/shared/reminder-messages";
import type { Memory, MemoryPage } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, startJourney } from "./fixtures";
import { addClientCookies, newPage, unexpectedConsoleErrors } from "./harness";

const PHONE = { width: 390, height: 844 };
const SPEECH = "We drove to the lake every summer and grandpa taught me to fish.";

describe("journey: a memory answers a question only when the person chose it", () => {
  let journey: JourneySetup;
  let owner: ApiClient;

  beforeAll(async () => {
    journey = await startJourney({ name: "question-choice", speech: SPEECH });
    owner = new ApiClient(journey.server.url);
    await owner.register("nana_questions");
  });
  afterAll(async () => {
    await journey?.close();
  });

  async function record(page: Page) {
    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(journey.speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page
      .getByText(MESSAGES.memorySaved, { exact: true })
      .first()
      .waitFor({ timeout: 60_000 });
  }
  const newest = async () =>
    (await owner.json<MemoryPage>("GET", "/api/memories")).data.items[0] as Memory;

  it("keeps no question on a story told beside it; keeps the one pressed to answer; the owner removes it", async () => {
    const { server, browser } = journey;
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(server.url);
    const question = (await page.getByTestId("question-text").textContent()) ?? "";
    expect(question).not.toBe("");
    const answer = page.getByRole("button", { name: REMINDER_MESSAGES.answerQuestion });
    expect(await answer.getAttribute("aria-pressed")).toBe("false");

    // A story told while the question is only shown answers no question.
    await record(page);
    const unrelated = await newest();
    expect(unrelated.question).toBeNull();

    // Pressed to answer: the next recording keeps it.
    await page.goto(server.url);
    await expect.poll(() => page.getByTestId("question-text").textContent()).toBeTruthy();
    const shown = (await page.getByTestId("question-text").textContent()) ?? "";
    await answer.click();
    expect(await answer.getAttribute("aria-pressed")).toBe("true");
    await page.getByText(REMINDER_MESSAGES.answeringQuestion).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join("test-results", "question-answer-phone.png") });
    await record(page);
    const answered = await newest();
    expect(answered.id).not.toBe(unrelated.id);
    expect(answered.question).toBe(shown);

    // The owner takes it off in the Edit dialog.
    await page.goto(`${server.url}/memory/${answered.id}`);
    await page.getByTestId("memory-question").getByText(shown).waitFor();
    await page.goto(server.url);
    await page
      .getByRole("button", { name: `Edit ${answered.title || "memory"}` })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.editMemory });
    await dialog.getByTestId("edit-memory-question").getByText(shown).waitFor();
    await dialog.getByRole("button", { name: MESSAGES.removeQuestion }).click();
    await dialog.getByText(MESSAGES.questionWillBeRemoved).waitFor();
    await page.screenshot({ path: path.join("test-results", "edit-remove-question-phone.png") });
    await dialog.getByRole("button", { name: MESSAGES.saveChanges }).click();
    await page.getByText(MESSAGES.memoryUpdated).first().waitFor();
    expect(
      (await owner.json<Memory>("GET", `/api/memories/${answered.id}`)).data.question,
    ).toBeNull();
    await page.goto(`${server.url}/memory/${answered.id}`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByTestId("memory-question").count()).toBe(0);

    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
