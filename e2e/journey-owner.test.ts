import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRecordedAt } from "../src/client/lib/format-date";
import { chatReply, defaultStubHandler } from "../src/server/test/openai-stub";
import { unzip } from "../src/server/test/zip";
import { GENERATED_TAG_COUNT, MAX_TAGS, PAGE_SIZE } from "../src/shared/constants";
import { MESSAGES, tagsUsedLabel } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, looksLikeMp3, seedMemory, startJourney } from "./fixtures";
import { newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const OWNER = "owner_journey";
const PASSWORD = "a long enough password";
const SPEECH = "We had a picnic by the old lighthouse and watched the ships sail past.";
const TITLE = "I will always remember our picnic by the lighthouse.";
const NEW_TITLE = "Lighthouse picnic with Grandpa";
/** The edited date as the datetime-local input holds it (local time, minute precision). */
const NEW_DATE = "2025-06-14T15:30";
/** A tag added in the Edit Memory dialog, next to the generated ones. */
const DIALOG_TAG = "picnic";
/** Enough memories to fill page 1 and start page 2. */
const TOTAL_MEMORIES = PAGE_SIZE + 5;

const listItems = (page: Page) =>
  page.getByRole("list", { name: "Memories" }).getByRole("listitem");

/**
 * The owner records, plays, reads the scores, edits, tags, pages, searches, backs up, deletes; a
 * visitor then sees the public list without edit buttons.
 */
describe("journey 2: an owner lives with their memories", () => {
  let journey: JourneySetup;
  let speechSeconds: number;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // A quick local provider that "hears" the speech and titles the memory after it.
    journey = await startJourney({
      name: "journey2",
      speech: SPEECH,
      stub: async (request) => {
        if (request.path.endsWith("/audio/transcriptions")) return { body: { text: SPEECH } };
        const json = request.json ?? {};
        if (request.path.endsWith("/chat/completions") && json.response_format === undefined) {
          return chatReply(`${TITLE} You ran to the water and waved at every ship, my love.`);
        }
        return defaultStubHandler(request);
      },
    });
    ({ speechSeconds, server, browser } = journey);
    // Older memories, so that the recorded one makes TOTAL_MEMORIES and lists first.
    const owner = new ApiClient(server.url);
    await owner.register(OWNER, PASSWORD);
    const start = Date.parse("2024-01-01T10:00:00.000Z");
    for (let i = 0; i < TOTAL_MEMORIES - 1; i++) {
      await seedMemory(owner, {
        title: `Quiet afternoon ${i}`,
        transcript: "We read a story under the blanket.",
        summary: "My darling, we read together.",
        tags: ["reading"],
        recordedAt: new Date(start + i * 86_400_000).toISOString(),
      });
    }
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("records, plays, edits, tags, pages, searches, backs up and deletes; a visitor cannot edit", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(server.url);

    // Log in from the top bar.
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    const login = page.getByRole("dialog", { name: MESSAGES.logIn });
    await login.getByLabel("Username").fill(OWNER);
    await login.getByLabel("Password").fill(PASSWORD);
    await login.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await expect.poll(() => listItems(page).count()).toBe(PAGE_SIZE);

    // Record with the fake microphone; the memory is saved and heads the list.
    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: MESSAGES.startRecording }).waitFor({ timeout: 30_000 });
    // No save-account dialog for someone logged in.
    expect(await page.getByRole("dialog").count()).toBe(0);
    await expect
      .poll(() => listItems(page).first().textContent(), { timeout: 30_000 })
      .toContain(TITLE);

    // Open it and play its audio.
    await page.getByRole("link", { name: new RegExp(TITLE) }).click();
    await page.getByRole("heading", { name: TITLE }).waitFor();
    const memoryId = new URL(page.url()).pathname.replace("/memory/", "");
    await page.getByText(SPEECH).waitFor();
    // Its scores (the stub's) open under 'Memory Scores': value/10 and a bar of value x10 percent.
    await page.getByRole("button", { name: MESSAGES.memoryScores }).click();
    await page.getByText("8/10", { exact: true }).waitFor();
    expect(
      await page
        .getByTestId("score-bar-cuteness")
        .evaluate((el) => (el as HTMLElement).style.width),
    ).toBe("70%");
    expect(await seriousViolations(page)).toEqual([]);
    const audioSrc = await page.locator("audio").evaluate((el) => (el as HTMLAudioElement).src);
    const audio = await page.request.get(audioSrc);
    expect(audio.status()).toBe(200);
    expect(audio.headers()["content-type"]).toBe("audio/mpeg");
    expect(looksLikeMp3(await audio.body())).toBe(true);
    await page.locator("audio").evaluate((el) => {
      el.addEventListener("playing", () => el.setAttribute("data-played", "true"), { once: true });
    });
    await page.getByRole("button", { name: "Play" }).click();
    await page.waitForFunction(
      () => {
        const el = document.querySelector("audio");
        return el?.getAttribute("data-played") === "true" && el.currentTime > 0;
      },
      undefined,
      { timeout: 30_000 },
    );
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("button", { name: "Play" }).waitFor();

    // Back home: edit the title and the date in the Edit Memory dialog.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await page.getByRole("button", { name: `Edit ${TITLE}` }).click();
    let dialog = page.getByRole("dialog", { name: MESSAGES.editMemory });
    await dialog.getByLabel("Title").fill(NEW_TITLE);
    await dialog.getByLabel("Date Recorded").fill(NEW_DATE);
    await dialog.getByLabel("New tag").fill(DIALOG_TAG);
    await dialog.getByLabel("New tag").press("Enter");
    await dialog.getByText(tagsUsedLabel(GENERATED_TAG_COUNT + 1, MAX_TAGS)).waitFor();
    await dialog.getByRole("button", { name: MESSAGES.saveChanges }).click();
    await page.getByText(MESSAGES.memoryUpdated).first().waitFor();
    await dialog.waitFor({ state: "detached" });

    // After a reload the list and the dialog show the new values.
    await page.reload();
    await expect
      .poll(() => listItems(page).first().textContent(), { timeout: 30_000 })
      .toContain(NEW_TITLE);
    // The browser runs in this machine's time zone: the local date-time typed, read back as shown.
    const shownDate = formatRecordedAt(new Date(NEW_DATE).toISOString());
    expect(await listItems(page).first().textContent()).toContain(shownDate);
    expect(await page.getByText(TITLE).count()).toBe(0);
    await page.getByRole("button", { name: `Edit ${NEW_TITLE}` }).click();
    dialog = page.getByRole("dialog", { name: MESSAGES.editMemory });
    expect(await dialog.getByLabel("Title").inputValue()).toBe(NEW_TITLE);
    expect(await dialog.getByLabel("Date Recorded").inputValue()).toBe(NEW_DATE);
    await dialog.getByText(tagsUsedLabel(GENERATED_TAG_COUNT + 1, MAX_TAGS)).waitFor();
    await dialog.getByRole("button", { name: MESSAGES.cancel }).click();
    await dialog.waitFor({ state: "detached" });

    // On the memory page: tags up to the limit, one more refused, one removed.
    await page.getByRole("link", { name: new RegExp(NEW_TITLE) }).click();
    await page.getByRole("heading", { name: NEW_TITLE }).waitFor();
    await page.getByText(tagsUsedLabel(GENERATED_TAG_COUNT + 1, MAX_TAGS)).waitFor();
    await page.getByRole("button", { name: "Edit tags" }).click();
    const newTag = page.getByLabel("New tag");
    const extraTags = ["lighthouse", "summer", "ships", "waves"].slice(
      0,
      MAX_TAGS - GENERATED_TAG_COUNT - 1,
    );
    for (const [i, tag] of extraTags.entries()) {
      await newTag.fill(tag);
      await newTag.press("Enter");
      await page.getByText(tagsUsedLabel(GENERATED_TAG_COUNT + 1 + i + 1, MAX_TAGS)).waitFor();
      await page.getByText(MESSAGES.tagAdded, { exact: true }).first().waitFor();
    }
    // At the limit the input and its button are disabled and say why, in the spec's words.
    expect(await newTag.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Add tag" }).isDisabled()).toBe(true);
    await page.getByText(MESSAGES.maxTagsReachedDescription).waitFor();
    expect(await newTag.getAttribute("aria-describedby")).toBe(
      await page.getByText(MESSAGES.maxTagsReachedDescription).getAttribute("id"),
    );
    // The server refuses a sixth tag too.
    const tooMany = await page.request.put(`${server.url}/api/memories/${memoryId}`, {
      data: {
        title: NEW_TITLE,
        transcript: SPEECH,
        summary: "x",
        recordedAt: new Date().toISOString(),
        tags: ["beach day", "grandpa", "sandcastle", DIALOG_TAG, ...extraTags, "one too many"],
      },
    });
    expect(tooMany.status()).toBe(400);
    expect(await tooMany.text()).toContain(MESSAGES.maxTagsReachedDescription);
    await page.getByRole("button", { name: "Remove tag sandcastle" }).click();
    await page.getByText(tagsUsedLabel(MAX_TAGS - 1, MAX_TAGS)).waitFor();
    await page.getByText(MESSAGES.tagRemoved, { exact: true }).first().waitFor();
    expect(await newTag.isDisabled()).toBe(false);
    await page.getByRole("button", { name: "Done" }).click();
    const keptTags = ["beach day", "grandpa", DIALOG_TAG, ...extraTags];
    const saved = (await (
      await page.request.get(`${server.url}/api/memories/${memoryId}`)
    ).json()) as Memory;
    expect(saved.tags).toEqual(keptTags);

    // Page through all of them.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);
    const pages = page.getByRole("navigation", { name: "Pages" });
    expect(await pages.getByRole("button").count()).toBe(2);
    expect(await pages.getByRole("button", { name: "Page 1" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await pages.getByRole("button", { name: "Page 2" }).click();
    await expect
      .poll(() => listItems(page).count(), { timeout: 10_000 })
      .toBe(TOTAL_MEMORIES - PAGE_SIZE);
    expect(await pages.getByRole("button", { name: "Page 2" }).getAttribute("aria-current")).toBe(
      "page",
    );
    // Newest first: page 2 holds the oldest seeded memories, down to the first.
    expect(await listItems(page).first().textContent()).toContain(
      `Quiet afternoon ${TOTAL_MEMORIES - PAGE_SIZE - 1}`,
    );
    expect(await listItems(page).last().textContent()).toContain("Quiet afternoon 0");
    expect(await page.getByText(NEW_TITLE).count()).toBe(0);
    await pages.getByRole("button", { name: "Page 1" }).click();
    await expect
      .poll(() => listItems(page).first().textContent(), { timeout: 10_000 })
      .toContain(NEW_TITLE);
    await pages.getByRole("button", { name: "Page 2" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("page")).toBe("2");
    await expect
      .poll(() => listItems(page).count(), { timeout: 10_000 })
      .toBe(TOTAL_MEMORIES - PAGE_SIZE);

    // Search, from page 2, by the start of a word of the transcript and title: back to page 1,
    // the one memory.
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("lighth");
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(1);
    expect(await listItems(page).first().textContent()).toContain(NEW_TITLE);
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();
    expect(await page.getByRole("navigation", { name: "Pages" }).count()).toBe(0);

    // Cleared, the search leaves page 1 of all of them.
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("");
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);
    expect(await listItems(page).first().textContent()).toContain(NEW_TITLE);
    expect(await pages.getByRole("button", { name: "Page 1" }).getAttribute("aria-current")).toBe(
      "page",
    );

    // Back up: the zip from the button holds every memory's metadata and its MP3.
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.getByRole("button", { name: MESSAGES.backupMemories }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    await page.getByText(MESSAGES.backupSuccessful, { exact: true }).first().waitFor();
    const zipPath = await download.path();
    const files = await unzip(await readFile(zipPath));
    const backup = JSON.parse(files.get("memories.json")?.toString("utf8") ?? "{}") as {
      memories: (Memory & { audioFile: string | null; audioContentType: string | null })[];
    };
    expect(backup.memories).toHaveLength(TOTAL_MEMORIES);
    const recorded = backup.memories.find((memory) => memory.id === memoryId);
    expect(recorded).toMatchObject({
      title: NEW_TITLE,
      transcript: SPEECH,
      tags: keptTags,
      status: "saved",
    });
    const expectedIso = await page.evaluate(
      (local) => new Date(`${local}:00`).toISOString(),
      NEW_DATE,
    );
    expect(recorded?.recordedAt).toBe(expectedIso);
    for (const memory of backup.memories) {
      expect(memory.audioContentType).toBe("audio/mpeg");
      expect(memory.audioFile).toMatch(/^audio\/.+\.mp3$/);
      const mp3 = files.get(memory.audioFile ?? "");
      expect(mp3, `${memory.audioFile} is in the zip`).toBeDefined();
      expect(looksLikeMp3(mp3 ?? Buffer.alloc(0)), `${memory.audioFile} is an MP3`).toBe(true);
    }
    const recordedMp3 = files.get(recorded?.audioFile ?? "");
    expect(recordedMp3?.equals(await audio.body())).toBe(true);

    // Delete the recorded memory by typing 'delete' (any case) in the confirmation.
    await page.getByRole("link", { name: new RegExp(NEW_TITLE) }).click();
    await page.getByRole("heading", { name: NEW_TITLE }).waitFor();
    await page.getByRole("button", { name: "Delete memory" }).click();
    const confirm = page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true });
    await confirm.waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel("Confirmation").fill("DELETE");
    await confirm.click();
    await page.getByText(MESSAGES.memoryDeleted, { exact: true }).first().waitFor();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);
    expect(await page.getByText(NEW_TITLE).count()).toBe(0);
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("lighthouse");
    await page.getByText(MESSAGES.noMemoriesFound).waitFor();
    expect((await page.request.get(`${server.url}/api/memories/${memoryId}`)).status()).toBe(404);
    expect((await page.request.get(audioSrc)).status()).toBe(404);

    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("");
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);
    await page.getByRole("button", { name: "Page 2" }).click();
    await expect
      .poll(() => listItems(page).count(), { timeout: 10_000 })
      .toBe(TOTAL_MEMORIES - 1 - PAGE_SIZE);
    expect(await pages.getByRole("button", { name: "Page 2" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await page.getByRole("button", { name: MESSAGES.backupMemories }).waitFor();
    await page.screenshot({
      path: path.join("test-results", "journey-2-owner.png"),
      fullPage: true,
      animations: "disabled",
    });
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();

    // A visitor on the owner's public profile sees the same list, without the edit buttons.
    const visitor = await newPage(browser);
    await visitor.page.goto(`${server.url}/profile/${OWNER}`);
    await expect.poll(() => listItems(visitor.page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);
    expect(await visitor.page.getByRole("button", { name: /^Edit / }).count()).toBe(0);
    expect(unexpectedConsoleErrors(visitor.consoleErrors)).toEqual([]);
    await visitor.context.close();
  });
});
