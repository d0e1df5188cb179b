import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultStubHandler,
  type OpenAiStub,
  type StubHandler,
} from "../src/server/test/openai-stub";
import { MESSAGES, recordingsAdded } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { serverFixture } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, startJourney } from "./fixtures";
import { confettiSettled, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const SPEECH = "Today we went to the beach with grandpa and you built a sandcastle.";
/** The default stub's summary starts with this sentence, so it is the title. */
const TITLE = "I will always remember our day at the beach with Grandpa.";
const PASSWORD = "sandcastle-2026";

/** The summary step fails (HTTP 500) until the provider "recovers". */
const summaryDown: StubHandler = (request) =>
  request.path.endsWith("/chat/completions") && request.json?.response_format === undefined
    ? { status: 500, body: { error: { message: "model overloaded" } } }
    : defaultStubHandler(request);

const unclaimedSection = (page: Page) => page.getByTestId("unclaimed-recordings");
const unclaimedItems = (page: Page) =>
  page.getByRole("list", { name: MESSAGES.unclaimedHeading }).getByRole("listitem");
const recentItems = (page: Page) =>
  page.getByRole("list", { name: "Memories" }).getByRole("listitem");

/** Records a memory without an account in this page's browser, through the API (no microphone). */
async function recordThroughApi(page: Page, server: RunningServer): Promise<Memory> {
  const upload = await page.request.post(`${server.url}/api/upload`, {
    multipart: {
      audio: {
        name: "recording.mp3",
        mimeType: "audio/mpeg",
        buffer: await serverFixture("tone.mp3"),
      },
    },
  });
  expect(upload.status()).toBe(201);
  const { url } = (await upload.json()) as { url: string };
  const processed = await page.request.post(`${server.url}/api/memories/process`, {
    data: { audioUrl: url },
  });
  expect(processed.status()).toBe(201);
  return (await processed.json()) as Memory;
}

async function settled(page: Page, server: RunningServer, id: string): Promise<Memory> {
  let memory: Memory | undefined;
  await expect
    .poll(
      async () => {
        memory = (await (
          await page.request.get(`${server.url}/api/memories/${id}`)
        ).json()) as Memory;
        return memory.status;
      },
      { timeout: 30_000 },
    )
    .not.toBe("processing");
  return memory as Memory;
}

/**
 * The first GET /api/journals/{id}/memories?page=1 (home's list of the open journal) is answered
 * by the server at once but reaches the page only after `ms`; the claim reaches the server only
 * once that list has been answered, so the answer holds nothing. Resolves what that first answer held once it has been delivered.
 */
async function slowFirstList(page: Page, ms: number): Promise<() => Promise<Memory[]>> {
  let first: Promise<Memory[]> | undefined;
  let listAnswered: () => void = () => {};
  const answeredByServer = new Promise<void>((resolve) => {
    listAnswered = resolve;
  });
  await page.route(/\/api\/memories\/[^/]+\/claim$/, async (route) => {
    await answeredByServer;
    await route.continue();
  });
  await page.route(/\/api\/journals\/[^/]+\/memories\?page=1$/, async (route) => {
    if (first) return route.continue();
    let done: (items: Memory[]) => void = () => {};
    first = new Promise((resolve) => {
      done = resolve;
    });
    const response = await route.fetch();
    listAnswered();
    const body = (await response.json()) as { items: Memory[] };
    await new Promise((r) => setTimeout(r, ms));
    await route.fulfill({ response });
    done(body.items);
  });
  return async () => {
    await expect.poll(() => first !== undefined, { timeout: 30_000 }).toBe(true);
    return first as Promise<Memory[]>;
  };
}

/**
 * Journey 1: a visitor records without an account (the MP3 made in the browser goes to the
 * provider), then keeps the memory by signing up from the top bar or from the save-account dialog,
 * and its new account owns it; a failed recording can be retried or deleted.
 */
describe("a visitor's recording is never stranded", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let stub: OpenAiStub;

  beforeAll(async () => {
    journey = await startJourney({
      name: "unclaimed",
      speech: SPEECH,
      env: { OPENAI_MAX_RETRIES: "0" },
    });
    ({ server, browser, stub } = journey);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("a visitor dismisses the dialog, finds the recording after a reload, and signs up from the top bar to keep it", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.startRecording }).click();
    await page.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await page.waitForTimeout(journey.speechSeconds * 1000 + 800);
    await page.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    // The audio went to the provider as an MP3 made in the browser.
    const transcription = stub.requests.find((r) => r.path.endsWith("/audio/transcriptions"));
    expect(transcription?.form?.file?.type).toBe("audio/mpeg");

    // Logged out, the save-account dialog follows the save; it is dismissed with Escape.
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // After a reload the home page still leads to it.
    await page.reload();
    await unclaimedSection(page).waitFor();
    await expect.poll(() => unclaimedItems(page).count()).toBe(1);
    await unclaimedItems(page).getByText(TITLE).waitFor();
    await confettiSettled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join("test-results", "journey-unclaimed-desktop.png"),
      fullPage: true,
      animations: "disabled",
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await unclaimedSection(page).scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join("test-results", "journey-unclaimed-phone.png"),
      fullPage: true,
      animations: "disabled",
    });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Sign up from the top bar (not the save-account dialog): the new account is offered it.
    await page.getByRole("button", { name: MESSAGES.signUp }).click();
    const signUp = page.getByRole("dialog", { name: MESSAGES.signUp });
    await signUp.getByLabel("Username").fill("grandpa_joe");
    await signUp.getByLabel("Email").fill("joe@example.com");
    await signUp.getByLabel("Password").fill(PASSWORD);
    await signUp.getByRole("button", { name: MESSAGES.signUp }).click();
    const offer = page.getByRole("dialog", { name: MESSAGES.attachOfferTitle });
    await offer.waitFor({ timeout: 30_000 });
    await offer.getByText(TITLE).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await offer.getByRole("button", { name: MESSAGES.addToMyAccount }).click();
    await page.getByText(recordingsAdded(1), { exact: true }).waitFor({ timeout: 30_000 });

    await expect.poll(() => recentItems(page).count(), { timeout: 30_000 }).toBe(1);
    await recentItems(page).getByText(TITLE).waitFor();
    expect(await unclaimedSection(page).count()).toBe(0);
    const user = (await (await page.request.get(`${server.url}/api/user`)).json()) as {
      id: string;
    };
    const list = (await (await page.request.get(`${server.url}/api/memories`)).json()) as {
      items: Memory[];
    };
    expect(list.items.map((m) => [m.title, m.user_id])).toEqual([[TITLE, user.id]]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("the save-account dialog's new account owns the memory, listed after 'Account saved!' even when the first list response is slow", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const memory = await recordThroughApi(page, server);
    expect((await settled(page, server, memory.id)).status).toBe("saved");
    await page.goto(server.url);
    await unclaimedItems(page).first().waitFor();

    const firstListAnswer = await slowFirstList(page, 2500);
    await unclaimedItems(page).getByRole("button", { name: MESSAGES.saveToAccount }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Username").fill("grandma_rose");
    await dialog.getByLabel("Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Save Account" }).click();
    await page.getByText(MESSAGES.accountSaved, { exact: true }).waitFor({ timeout: 30_000 });
    await dialog.waitFor({ state: "detached" });

    // The slow answer was made before the claim (it held nothing) and has now arrived...
    expect(await firstListAnswer()).toEqual([]);
    await page.waitForTimeout(500);
    // ...and the list shows the claimed memory all the same.
    await expect.poll(() => recentItems(page).count(), { timeout: 30_000 }).toBe(1);
    await recentItems(page).getByText(TITLE).waitFor();
    expect(await page.getByText(MESSAGES.noMemoriesFound).count()).toBe(0);
    // Signed in as the new account, a private one, that owns the saved memory and its tags.
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    const user = (await (await page.request.get(`${server.url}/api/user`)).json()) as {
      id: string;
      isPublic: boolean;
    };
    expect(user.isPublic).toBe(false);
    const list = (await (await page.request.get(`${server.url}/api/memories`)).json()) as {
      items: Memory[];
    };
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: memory.id,
      user_id: user.id,
      status: "saved",
      tags: ["beach day", "grandpa", "sandcastle"],
    });
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("a visitor's failed recordings can be retried and deleted from the home page", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    stub.handle(summaryDown);
    const first = await recordThroughApi(page, server);
    expect((await settled(page, server, first.id)).status).toBe("failed");
    const second = await recordThroughApi(page, server);
    expect((await settled(page, server, second.id)).status).toBe("failed");

    await page.goto(server.url);
    await expect.poll(() => unclaimedItems(page).count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => unclaimedItems(page).getByText("Processing failed").count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join("test-results", "journey-unclaimed-failed-desktop.png"),
      fullPage: true,
      animations: "disabled",
    });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join("test-results", "journey-unclaimed-failed-phone.png"),
      fullPage: true,
      animations: "disabled",
    });

    // The provider recovers: Retry on the newer one (listed first) saves it.
    stub.handle(defaultStubHandler);
    const newer = unclaimedItems(page).first();
    await newer.getByRole("button", { name: MESSAGES.retry }).click();
    await newer.getByText(TITLE).waitFor({ timeout: 60_000 });
    expect((await settled(page, server, second.id)).status).toBe("saved");

    // The other is discarded with the delete confirmation.
    const older = unclaimedItems(page).nth(1);
    await older.getByRole("button", { name: new RegExp(`^${MESSAGES.deleteMemory} `) }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByLabel("Confirmation").fill("delete");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await page.getByText(MESSAGES.memoryDeleted, { exact: true }).waitFor();
    await expect.poll(() => unclaimedItems(page).count()).toBe(1);
    const gone = await page.request.get(`${server.url}/api/memories/${first.id}`);
    expect(gone.status()).toBe(404);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
