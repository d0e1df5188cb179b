import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const MISHEARD =
  "Today we went to the beach with grandpa and you built a sand castle with loose ear. You laughed from ear to ear.";
const CORRECTED =
  "Today we went to the beach with Grandpa and you built a sandcastle with Lucia. You laughed from ear to ear when the waves came.";

/** Every text the status line showed, in order, from the moment this is called. */
async function recordStatus(page: Page, selector: string): Promise<() => Promise<string[]>> {
  await page.evaluate((sel) => {
    const element = document.querySelector(sel);
    const seen: string[] = [];
    (window as unknown as { __notices: string[] }).__notices = seen;
    if (!element) return;
    new MutationObserver(() => {
      const text = element.textContent ?? "";
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(element, { childList: true, characterData: true, subtree: true });
  }, selector);
  return () => page.evaluate(() => (window as unknown as { __notices: string[] }).__notices);
}

const PHONE = { width: 390, height: 844 };
/** WCAG 2.5.5: a target a thumb can hit. Half a pixel for sub-pixel layout. */
const MIN_TARGET_PX = 44 - 0.5;

/**
 * Every button and link on the memory page is at least 44 px each way; the transcript's sentences
 * (buttons inside the text, to play from there) are words, not targets of their own.
 */
async function expectThumbSized(page: Page) {
  const small = await page.evaluate((min) => {
    const targets = document.querySelectorAll<HTMLElement>("article button, article a[href]");
    return [...targets]
      .filter((element) => !element.closest("[data-testid=transcript]"))
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => ({ element, rect: element.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width < min || rect.height < min)
      .map(
        ({ element, rect }) =>
          `${element.getAttribute("aria-label") ?? element.textContent}: ${rect.width}x${rect.height}`,
      );
  }, MIN_TARGET_PX);
  expect(small).toEqual([]);
}

const STEPS = [MESSAGES.summarizing, MESSAGES.scoring, MESSAGES.tagging, MESSAGES.saving];

describe("fix a transcript, regenerate the rest, with the local text model, in Chromium", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let owner: ApiClient;
  let memory: Memory;

  beforeAll(async () => {
    // The local provider writes the text; nothing here calls the AI stub.
    journey = await startJourney({ name: "regenerate", env: { AI_PROVIDER: "local" } });
    ({ server, browser } = journey);
    owner = new ApiClient(server.url);
    await owner.register("regen_owner");
    memory = await seedMemory(owner, {
      title: "Sand castle with loose ear.",
      transcript: MISHEARD,
      summary: "Sand castle with loose ear.",
      tags: ["loose ear"],
    });
  }, 120_000);
  afterAll(async () => {
    await journey?.close();
  });

  it("corrects the transcript in the edit dialog, then regenerates on the memory page", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(server.url);
    await page.getByRole("button", { name: `Edit ${memory.title}` }).click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.editMemory });
    await dialog.getByLabel("Transcript").fill(CORRECTED);
    const dialogNotices = await recordStatus(page, "[role=dialog] [role=status]");
    await dialog.getByRole("button", { name: MESSAGES.saveAndRegenerate }).click();
    await page.getByText(MESSAGES.memoryUpdated).first().waitFor({ timeout: 30_000 });
    expect(await dialogNotices()).toEqual(STEPS);
    await dialog.waitFor({ state: "detached" });

    // The new title is made from the corrected words by the local model, and the list shows it.
    const saved = await owner.json<Memory>("GET", `/api/memories/${memory.id}`);
    expect(saved.data).toMatchObject({ status: "saved", transcript: CORRECTED });
    expect(saved.data.title).toMatch(/^We went to the beach with Grandpa\b/);
    const item = page.getByRole("list", { name: "Memories" }).getByRole("listitem").first();
    await item.getByText(saved.data.title).waitFor();
    expect(saved.data.summary).toContain("Lucia");
    expect(saved.data.summary.length).toBeLessThan(CORRECTED.length);
    expect(saved.data.tags).not.toContain("loose ear");

    // The owner then writes their own title, summary and tags: what Regenerate would replace.
    const OWN = {
      title: "Grandpa's sandcastle day",
      summary: "Our sandcastle.",
      tags: ["grandpa"],
    };
    const { transcript, recordedAt } = saved.data;
    await owner.json("PUT", `/api/memories/${memory.id}`, { ...OWN, transcript, recordedAt });

    // On the memory page, at a phone's size: every control a thumb's size, Edit beside Delete.
    await page.goto(`${server.url}/memory/${memory.id}`);
    const button = page.getByRole("button", { name: MESSAGES.regenerate });
    await button.waitFor();
    await expectThumbSized(page);
    await page.getByRole("button", { name: MESSAGES.editMemoryLabel }).click();
    const editDialog = page.getByRole("dialog", { name: MESSAGES.editMemory });
    expect(await editDialog.getByLabel("Title").inputValue()).toBe(OWN.title);
    await editDialog.getByRole("button", { name: MESSAGES.cancel }).click();
    await editDialog.waitFor({ state: "detached" });

    // Regenerate asks first, shows the same steps, and offers Undo.
    const pageNotices = await recordStatus(page, "article header [role=status]");
    await button.click();
    const confirm = page.getByRole("dialog", { name: MESSAGES.regenerateConfirmTitle });
    await confirm.getByText(MESSAGES.regenerateConfirmDescription).waitFor();
    await confirm.getByRole("button", { name: MESSAGES.regenerateConfirm }).click();
    await page.getByText(MESSAGES.memoryUpdated).first().waitFor({ timeout: 30_000 });
    expect(await pageNotices()).toEqual(STEPS);
    await page.getByRole("heading", { level: 1, name: saved.data.title }).waitFor();
    await page.getByRole("button", { name: MESSAGES.undo }).click();
    await page.getByText(MESSAGES.regenerateUndone).first().waitFor();
    await page.getByRole("heading", { level: 1, name: OWN.title }).waitFor();
    const undone = await owner.json<Memory>("GET", `/api/memories/${memory.id}`);
    expect(undone.data).toMatchObject({ ...OWN, transcript: CORRECTED });
    await page.screenshot({ path: path.join("test-results", "regenerate.png"), fullPage: true });
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  }, 120_000);
});
