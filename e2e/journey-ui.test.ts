import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../src/shared/constants";
import { documentTitle, MESSAGES, profileTitle, removeCommentLabel } from "../src/shared/messages";
import { QUESTIONS } from "../src/shared/questions";
import type { Comment, Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** WCAG 2.5.5: a target a thumb can hit. Half a pixel for sub-pixel layout. */
const MIN_TARGET_PX = 44 - 0.5;
const OWNER = "ui_owner";
const PASSWORD = "a long enough password";
/** Memories with "beach" in them: more than a page of search results. */
const BEACH_COUNT = PAGE_SIZE + 3;
const LONG_SECONDS = 600;
const LONG_TITLE = "The long story of the summer house";

const shot = (name: string) => path.join("test-results", `journey-ui-${name}.png`);
const listItems = (page: Page) =>
  page.getByRole("list", { name: "Memories" }).getByRole("listitem");

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`no box for ${locator}`);
  return found;
}

async function expectTouchTarget(locator: Locator, what: string) {
  const { width, height } = await box(locator);
  expect(width, `${what} width`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
  expect(height, `${what} height`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
}

/**
 * The room the home page keeps for the question prompt (min-height) holds it with any built-in
 * question in it, so nothing below the prompt moves when it comes, whichever question a visitor's
 * random start picks. Each question is laid out in the prompt in turn and measured.
 */
async function expectRoomForEveryQuestion(page: Page) {
  const slot = page.getByTestId("question-slot");
  await page.getByTestId("question-prompt").waitFor();
  const { keptRoom, tallest } = await slot.evaluate((element, questions) => {
    const text = element.querySelector('[data-testid="question-text"]');
    const prompt = element.querySelector('[data-testid="question-prompt"]');
    if (!text || !prompt) throw new Error("no question prompt");
    const shown = text.textContent;
    let tallest = { height: 0, question: "" };
    for (const question of questions) {
      text.textContent = question;
      const height = prompt.getBoundingClientRect().height;
      if (height > tallest.height) tallest = { height, question };
    }
    text.textContent = shown;
    return { keptRoom: Number.parseFloat(getComputedStyle(element).minHeight), tallest };
  }, QUESTIONS);
  expect(keptRoom, tallest.question).toBeGreaterThanOrEqual(tallest.height);
}

/** Logs the page's browser context in (the session cookie is shared with the page). */
async function logIn(page: Page, serverUrl: string) {
  const login = await page.request.post(`${serverUrl}/api/login`, {
    data: { username: OWNER, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
}

/** The player, URL state, confirmations, phone layout, 404s. */
describe("journey: the everyday screens at phone and desktop sizes", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let longMemory: Memory;
  let owner: ApiClient;

  beforeAll(async () => {
    journey = await startJourney({ name: "journey-ui" });
    ({ server, browser } = journey);
    owner = new ApiClient(server.url);
    await owner.register(OWNER, PASSWORD);
    const start = Date.parse("2024-03-01T10:00:00.000Z");
    for (let i = 0; i < BEACH_COUNT; i++) {
      await seedMemory(owner, {
        title: `Beach day ${i}`,
        transcript: "We built a sandcastle by the sea.",
        summary: "My darling, the beach was ours.",
        tags: ["beach"],
        recordedAt: new Date(start + i * 86_400_000).toISOString(),
      });
    }
    // Ten minutes of tone (9.6 MB): far more than the browser reads for metadata, so a seek near
    // the end must ask the server for a later byte range.
    const mp3 = path.join(journey.workDir, "long.mp3");
    execFileSync("ffmpeg", [
      ...["-loglevel", "error", "-f", "lavfi", "-i", `sine=frequency=330:duration=${LONG_SECONDS}`],
      ...["-ac", "1", "-b:a", "128k", mp3],
    ]);
    const upload = await owner.upload(await readFile(mp3));
    expect(upload.status).toBe(201);
    const { url } = (await upload.json()) as { url: string };
    const created = await owner.json<Memory>("POST", "/api/memories", {
      title: LONG_TITLE,
      audioUrl: url,
      transcript: "It was a long summer at the house by the lake.",
      summary: "My love, that summer lasted forever.",
      tags: ["summer", "lake"],
      duration: LONG_SECONDS,
      recordedAt: new Date().toISOString(),
    });
    expect(created.status).toBe(201);
    longMemory = created.data;
    // A visitor's spoken comment on it.
    const visitor = new ApiClient(server.url);
    const commentUpload = await seedCommentAudio(visitor);
    const comment = await visitor.json<Comment>("POST", `/api/memories/${longMemory.id}/comments`, {
      commenterName: "Aunt May",
      audioUrl: commentUpload,
    });
    expect(comment.status).toBe(201);
  });
  afterAll(async () => {
    await journey?.close();
  });

  async function seedCommentAudio(client: ApiClient): Promise<string> {
    const tone = await readFile(
      path.join(import.meta.dirname, "../src/server/test/fixtures/tone.mp3"),
    );
    const res = await client.upload(tone);
    expect(res.status).toBe(201);
    return ((await res.json()) as { url: string }).url;
  }

  it("fits the logged-out top bar on one row at 390 px, with thumb-sized controls", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    await page.goto(server.url);
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    await expectRoomForEveryQuestion(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    const controls = [
      nav.getByRole("link", { name: MESSAGES.watchView }),
      nav.getByRole("button", { name: MESSAGES.logIn }),
      nav.getByRole("button", { name: MESSAGES.signUp }),
    ];
    const title = await box(nav.getByRole("link", { name: MESSAGES.appTitle }));
    const boxes = await Promise.all(controls.map(box));
    // One row: every control's vertical centre on one line, beside the title.
    const centres = boxes.map((b) => b.y + b.height / 2);
    expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(1);
    for (const b of boxes) {
      expect(b.y).toBeLessThan(title.y + title.height);
      expect(b.y + b.height).toBeGreaterThan(title.y);
      expect(b.x).toBeGreaterThanOrEqual(title.x + title.width);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    }
    // Sorted left to right, none wrapped under another.
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]?.x).toBeGreaterThanOrEqual(
        (boxes[i - 1]?.x ?? 0) + (boxes[i - 1]?.width ?? 0),
      );
    }
    const header = await box(page.getByRole("banner"));
    expect(header.height).toBeLessThan(72);
    for (const [i, control] of controls.entries()) await expectTouchTarget(control, `control ${i}`);
    // 'Forgot your password?' has no room on the phone's bar: the Log in dialog offers it.
    expect(await nav.getByRole("button", { name: MESSAGES.forgotPassword }).isVisible()).toBe(
      false,
    );

    // The record button sits in the middle of its card.
    const card = await box(page.getByTestId("record-card"));
    const record = await box(page.getByRole("button", { name: MESSAGES.startRecording }));
    expect(Math.abs(record.x + record.width / 2 - (card.x + card.width / 2))).toBeLessThanOrEqual(
      1,
    );
    expect(Math.abs(record.y + record.height / 2 - (card.y + card.height / 2))).toBeLessThanOrEqual(
      1,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("phone-home-logged-out"), animations: "disabled" });

    await controls[1]?.click();
    const login = page.getByRole("dialog", { name: MESSAGES.logIn });
    await login.waitFor();
    await expectTouchTarget(login.getByRole("button", { name: "Close" }), "dialog close");
    await login.getByRole("button", { name: MESSAGES.forgotPassword }).click();
    await page.getByRole("dialog", { name: "Reset your password" }).waitFor();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("balances the home heading on desktop (no lone word on its last line)", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto(server.url);
    const heading = page.getByRole("heading", { name: MESSAGES.homeHeader });
    await heading.waitFor();
    // The question to answer loads after first paint, above the record card: measure once it is in.
    // Its room was kept before it came (min-height), so nothing below it moved when it did.
    await expectRoomForEveryQuestion(page);
    // Words grouped by the line they are laid out on.
    const lines = await heading.evaluate((element) => {
      const text = element.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) throw new Error("no text");
      const content = text.textContent ?? "";
      const byTop = new Map<number, string[]>();
      for (const match of content.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index ?? 0);
        range.setEnd(text, (match.index ?? 0) + match[0].length);
        const top = Math.round(range.getBoundingClientRect().top);
        byTop.set(top, [...(byTop.get(top) ?? []), match[0]]);
      }
      return [...byTop.entries()].sort((a, b) => a[0] - b[0]).map(([, words]) => words);
    });
    expect(lines.flat().join(" ")).toBe(MESSAGES.homeHeader);
    for (const line of lines) expect(line.length, line.join(" ")).toBeGreaterThan(1);
    const card = await box(page.getByTestId("record-card"));
    const record = await box(page.getByRole("button", { name: MESSAGES.startRecording }));
    expect(Math.abs(record.y + record.height / 2 - (card.y + card.height / 2))).toBeLessThanOrEqual(
      1,
    );
    await page.screenshot({ path: shot("desktop-home-logged-out"), animations: "disabled" });
    await context.close();
  });

  it("plays, seeks with an HTTP Range request, and asks before a comment is removed (phone)", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    await logIn(page, server.url);
    const audioRequests: { range: string | undefined; status: number }[] = [];
    page.on("response", (response) => {
      if (!response.url().includes("/api/audio/")) return;
      audioRequests.push({
        range: response.request().headers().range,
        status: response.status(),
      });
    });
    await page.goto(`${server.url}/memory/${longMemory.id}`);
    await page.getByRole("heading", { name: LONG_TITLE }).waitFor();
    await expect.poll(() => page.title()).toBe(documentTitle(LONG_TITLE));

    const player = page.getByRole("group", { name: MESSAGES.recording });
    const slider = player.getByRole("slider", { name: MESSAGES.playbackPosition });
    const time = player.getByTestId("player-time");
    expect(await player.locator("audio").getAttribute("preload")).toBe("metadata");
    await expect.poll(() => time.textContent(), { timeout: 15_000 }).toBe("0:00 / 10:00");
    expect(await slider.getAttribute("aria-valuetext")).toBe("0:00 of 10:00");

    // Thumb-sized: play, the seek bar's height, delete, tag and comment controls.
    await expectTouchTarget(player.getByRole("button", { name: MESSAGES.play }), "play");
    expect((await box(slider)).height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    await expectTouchTarget(page.getByRole("button", { name: "Delete memory" }), "delete");
    await page.getByRole("button", { name: "Edit tags" }).click();
    await expectTouchTarget(page.getByRole("button", { name: "Remove tag summer" }), "tag remove");
    await expectTouchTarget(page.getByRole("button", { name: "Add tag" }), "add tag");
    await page.getByRole("button", { name: "Add tag" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot("phone-tag-editor"), animations: "disabled" });
    await page.getByRole("button", { name: "Done" }).click();
    const removeComment = page.getByRole("button", { name: removeCommentLabel("Aunt May") });
    await expectTouchTarget(removeComment, "remove comment");

    // Seek first, before playing has buffered anything: tapping three quarters along the bar
    // moves the position there and the browser asks the server for that part of the file.
    const audio = player.locator("audio");
    const currentTime = () => audio.evaluate((el) => (el as HTMLAudioElement).currentTime);
    const before = audioRequests.length;
    // The tag editor above may have scrolled the page: the bar must be on screen to be tapped.
    await slider.scrollIntoViewIfNeeded();
    const bar = await box(slider);
    await page.mouse.click(bar.x + bar.width * 0.75, bar.y + bar.height / 2);
    await expect.poll(currentTime).toBeGreaterThan(LONG_SECONDS * 0.7);
    await expect.poll(() => time.textContent()).toMatch(/^7:\d\d \/ 10:00$/);
    await expect
      .poll(
        () =>
          audioRequests
            .slice(before)
            .some(
              (r) => r.status === 206 && Number(/^bytes=(\d+)-/.exec(r.range ?? "")?.[1]) > 5e6,
            ),
        { timeout: 15_000 },
      )
      .toBe(true);
    const seekedTo = await currentTime();

    // Play from there, then pause with the keyboard on the focused button.
    await player.getByRole("button", { name: MESSAGES.play }).click();
    await expect.poll(currentTime, { timeout: 15_000 }).toBeGreaterThan(seekedTo + 0.2);
    await page.keyboard.press("Space");
    await player.getByRole("button", { name: MESSAGES.play }).waitFor();
    expect(await audio.evaluate((el) => (el as HTMLAudioElement).paused)).toBe(true);

    // The arrow keys move it too, in 5-second steps.
    const beforeKeys = await currentTime();
    await slider.focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(currentTime).toBeCloseTo(beforeKeys - 10, 0);
    await player.getByRole("button", { name: MESSAGES.play }).click();
    await player.getByRole("button", { name: MESSAGES.pause }).click();
    await page.screenshot({ path: shot("phone-memory-player"), animations: "disabled" });

    // Removing a spoken comment asks first; Cancel keeps it.
    const deletes: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "DELETE") deletes.push(request.url());
    });
    await removeComment.click();
    const confirm = page.getByRole("alertdialog", { name: MESSAGES.removeCommentTitle });
    await confirm.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("phone-comment-confirm"), animations: "disabled" });
    await confirm.getByRole("button", { name: MESSAGES.cancel }).click();
    await confirm.waitFor({ state: "detached" });
    expect(deletes).toEqual([]);
    expect(await page.getByTestId("comment").count()).toBe(1);
    await removeComment.click();
    await confirm.getByRole("button", { name: MESSAGES.remove }).click();
    await page.getByText(MESSAGES.commentRemoved, { exact: true }).first().waitFor();
    await page
      .getByTestId("comments-card")
      .getByRole("heading", { name: MESSAGES.noComments })
      .waitFor();
    expect(deletes).toHaveLength(1);
    const left = await owner.json<Comment[]>("GET", `/api/memories/${longMemory.id}/comments`);
    expect(left.data).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("keeps page and search in the URL through paging, reload and Back (phone)", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    await logIn(page, server.url);
    await page.goto(server.url);
    const search = page.getByPlaceholder(MESSAGES.searchPlaceholder);
    await search.fill("beach");
    await expect.poll(() => new URL(page.url()).search).toBe("?q=beach");
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);

    // The page buttons are below the list: page 2 starts at the top of the list.
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expectTouchTarget(pages.getByRole("button", { name: "Page 2" }), "page button");
    const list = page.getByTestId("memory-list");
    await pages.getByRole("button", { name: "Page 2" }).scrollIntoViewIfNeeded();
    // Down at the page buttons, the list's top is scrolled out of sight.
    expect(await list.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(0);
    await pages.getByRole("button", { name: "Page 2" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?q=beach&page=2");
    await expect
      .poll(() => listItems(page).count(), { timeout: 10_000 })
      .toBe(BEACH_COUNT - PAGE_SIZE);
    // The new page is read from its top: the list's start is back on screen, near the top
    // (the shorter last page may stop the scroll a little lower).
    const listTop = await list.evaluate((el) => el.getBoundingClientRect().top);
    expect(listTop).toBeGreaterThanOrEqual(0);
    expect(listTop).toBeLessThan(PHONE.height / 3);

    // A reload shows the same page of the same search.
    await page.reload();
    await expect
      .poll(() => listItems(page).count(), { timeout: 10_000 })
      .toBe(BEACH_COUNT - PAGE_SIZE);
    expect(await search.inputValue()).toBe("beach");
    expect(await pages.getByRole("button", { name: "Page 2" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await page.screenshot({ path: shot("phone-home-search-page-2"), fullPage: true });

    // Into a memory and Back (the page's button, then the browser's) returns to it.
    const first = (await listItems(page).first().getByRole("link").textContent()) ?? "";
    await listItems(page).first().getByRole("link").click();
    await page.getByRole("button", { name: "Back" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?q=beach&page=2");
    await expect.poll(() => listItems(page).first().textContent()).toContain(first.slice(0, 12));
    expect(await search.inputValue()).toBe("beach");
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe("?q=beach");
    await expect.poll(() => listItems(page).count(), { timeout: 10_000 }).toBe(PAGE_SIZE);
    expect(await search.inputValue()).toBe("beach");
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("shows the owner their profile's visibility and visitors 'Search these memories...'", async () => {
    const profileUrl = `${server.url}/profile/${OWNER}`;
    const name = profileTitle({ username: OWNER });

    // A visitor on a public profile, page 2 from the URL, kept on reload.
    const visitor = await newPage(browser, { viewport: DESKTOP });
    await visitor.page.goto(`${profileUrl}?page=2`);
    await visitor.page.getByRole("heading", { name }).waitFor();
    await expect.poll(() => visitor.page.title()).toBe(documentTitle(name));
    await visitor.page.getByPlaceholder(MESSAGES.searchTheseMemories).waitFor();
    expect(await visitor.page.getByPlaceholder(MESSAGES.searchPlaceholder).count()).toBe(0);
    expect(await visitor.page.getByTestId("profile-visibility").count()).toBe(0);
    await expect
      .poll(() => listItems(visitor.page).count(), { timeout: 10_000 })
      .toBe(BEACH_COUNT + 1 - PAGE_SIZE);
    await visitor.page.reload();
    await expect
      .poll(() => listItems(visitor.page).count(), { timeout: 10_000 })
      .toBe(BEACH_COUNT + 1 - PAGE_SIZE);
    expect(await seriousViolations(visitor.page)).toEqual([]);
    await visitor.page.screenshot({ path: shot("desktop-profile-visitor"), fullPage: true });
    expect(unexpectedConsoleErrors(visitor.consoleErrors)).toEqual([]);
    await visitor.context.close();

    // The owner, on a phone: their own search wording and the badge, public then private.
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    await logIn(page, server.url);
    await page.goto(profileUrl);
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).waitFor();
    const badge = page.getByTestId("profile-visibility");
    await badge.getByText(MESSAGES.profilePublic).waitFor();
    await page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await page.getByRole("menuitem", { name: MESSAGES.makeProfilePrivate }).click();
    await badge.getByText(MESSAGES.profilePrivate).waitFor();
    await page.reload();
    await page.getByTestId("profile-visibility").getByText(MESSAGES.profilePrivate).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("phone-profile-owner-private"), animations: "disabled" });
    // Public again for the other journeys' visitors.
    await page.getByRole("button", { name: MESSAGES.userMenu }).click();
    await page.getByRole("menuitem", { name: MESSAGES.makeProfilePublic }).click();
    await badge.getByText(MESSAGES.profilePublic).waitFor();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("answers unknown paths with HTTP 404 and the app's one 404 page, each page titled", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: PHONE });
    const response = await page.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    const notFound = page.getByTestId("not-found");
    await notFound.getByRole("heading", { name: MESSAGES.notFoundPage }).waitFor();
    await expect.poll(() => page.title()).toBe(documentTitle(MESSAGES.pageNotFoundTitle));
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: shot("phone-404"), animations: "disabled" });

    // A memory that is not there (or not this browser's to see): 404 too, the same 404 page.
    const gone = await page.goto(`${server.url}/memory/not-a-memory`);
    expect(gone?.status()).toBe(404);
    await notFound.getByRole("heading", { name: MESSAGES.notFoundPage }).waitFor();
    await notFound.getByRole("link", { name: MESSAGES.returnToHome }).click();
    await page.getByRole("heading", { name: MESSAGES.homeHeader }).waitFor();
    await expect.poll(() => page.title()).toBe(MESSAGES.appTitle);

    for (const [url, status] of [
      ["/", 200],
      ["/?page=2&q=beach", 200],
      ["/watch", 200],
      ["/account", 200],
      ["/reset-password?token=x", 200],
      ["/profile/nobody_here", 200],
      ["/memory", 404],
      ["/memory/not-a-memory", 404],
      ["/watch/more", 404],
    ] as const) {
      expect((await page.request.get(`${server.url}${url}`)).status(), url).toBe(status);
    }
    await page.goto(`${server.url}/watch`);
    await expect.poll(() => page.title()).toBe(documentTitle(MESSAGES.watchTitle));
    await page.goto(`${server.url}/profile/nobody_here`);
    await notFound.getByRole("heading", { name: MESSAGES.profileNotFound }).waitFor();
    await expect.poll(() => page.title()).toBe(documentTitle(MESSAGES.profileNotFound));
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
