import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exifTags, testJpeg, withExif } from "../src/server/test/image-fixtures";
import { MESSAGES } from "../src/shared/messages";
import { PHOTO_MESSAGES } from "../src/shared/photos";
import type { Memory } from "../src/shared/schemas";
import type { CreatedShareLink } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage, unexpectedConsoleErrors } from "./harness";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

/** True once the image has arrived and decoded (a broken or pending one has no natural width). */
async function loaded(image: Locator): Promise<boolean> {
  await image.scrollIntoViewIfNeeded();
  return image.evaluate(async (element) => {
    const img = element as HTMLImageElement;
    if (!img.complete) await new Promise((resolve) => img.addEventListener("load", resolve));
    return img.naturalWidth > 0;
  }, undefined);
}

describe("photos beside a memory, added by a parent and seen by Grandma through a link", () => {
  let journey: JourneySetup;
  let parent: ApiClient;
  let memory: Memory;
  let beach: string;
  let boat: string;
  const username = `photos${Date.now().toString(36)}`;

  beforeAll(async () => {
    journey = await startJourney({
      name: "photos",
      speech: "This is the boat my grandfather built.",
    });
    parent = new ApiClient(journey.server.url);
    await parent.register(username);
    memory = await seedMemory(parent, {
      title: "Grandpa's boat",
      transcript: "We sailed to the island on Grandpa's boat.",
      summary: "The day we sailed to the island.",
      tags: ["sailing"],
    });
    // A camera photo that says where it was taken, and another.
    beach = path.join(journey.workDir, "beach.jpg");
    boat = path.join(journey.workDir, "boat.jpg");
    await writeFile(beach, await withExif(await testJpeg(2400, 1800)));
    await writeFile(boat, await testJpeg(1200, 1600));
  });
  afterAll(async () => {
    await journey?.close();
  });

  const shot = (page: Page, name: string) =>
    page.screenshot({
      path: path.join("test-results", name),
      fullPage: true,
      animations: "disabled",
    });

  it("the parent adds two photos at desktop size and makes the second the cover", async () => {
    const { server, browser } = journey;
    const tab = await newPage(browser, DESKTOP);
    await addClientCookies(tab.context, server.url, parent.cookieHeader());
    const page = tab.page;
    await page.goto(`${server.url}/memory/${memory.id}`);
    await page.getByRole("heading", { name: "Grandpa's boat" }).waitFor();
    await page.getByRole("button", { name: PHOTO_MESSAGES.add }).waitFor();
    await page.getByTestId("photo-input").setInputFiles([beach, boat]);
    await page.getByText(PHOTO_MESSAGES.added).first().waitFor({ timeout: 30_000 });
    const second = page.getByRole("button", { name: "Photo 2 of 2", exact: true });
    await second.waitFor();
    expect(await loaded(second.locator("img"))).toBe(true);

    await page.getByRole("button", { name: PHOTO_MESSAGES.arrange }).click();
    const arrange = page.getByRole("dialog", { name: PHOTO_MESSAGES.arrange });
    await arrange.getByRole("button", { name: "Make cover: Photo 2 of 2" }).click();
    // The portrait boat (1200 wide) is the cover now.
    await expect
      .poll(
        async () =>
          (await parent.json<Memory>("GET", `/api/memories/${memory.id}`)).data.photos[0]?.width,
      )
      .toBe(1200);
    await arrange.getByText(PHOTO_MESSAGES.cover, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "photos-arrange-desktop.png");
    await page.keyboard.press("Escape");
    await arrange.waitFor({ state: "detached" });
    await page
      .getByRole("button", { name: "Photo 1 of 2", exact: true })
      .locator('img[width="1200"]')
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "photos-memory-desktop.png");

    // What the server keeps carries no location.
    const stored = (await parent.json<Memory>("GET", `/api/memories/${memory.id}`)).data.photos;
    const landscape = stored.find((photo) => photo.width === 1800);
    expect(landscape).toBeDefined();
    const bytes = Buffer.from(
      await (await parent.request("GET", `${landscape?.url}?size=full`)).arrayBuffer(),
    );
    expect(JSON.stringify(await exifTags(bytes))).not.toMatch(/GPS/);

    // The cover in the home list: a lazily loaded thumbnail offered in two sizes.
    await page.goto(server.url);
    const item = page.getByRole("list", { name: "Memories" }).getByRole("listitem").first();
    const cover = item.locator("img");
    expect(await cover.getAttribute("loading")).toBe("lazy");
    expect(await cover.getAttribute("srcset")).toMatch(/\?size=thumb 240w, .*\?size=medium 1200w/);
    expect(await loaded(cover)).toBe(true);
    await shot(page, "photos-home-desktop.png");

    // Tap to see it full size.
    await page.goto(`${server.url}/memory/${memory.id}`);
    await page.getByRole("button", { name: "Photo 1 of 2", exact: true }).click();
    const viewer = page.getByRole("dialog", { name: "Photo 1 of 2", exact: true });
    expect(await loaded(viewer.getByRole("img"))).toBe(true);
    expect(await viewer.getByRole("img").getAttribute("src")).toMatch(/\?size=full$/);
    await page.keyboard.press("ArrowRight");
    await page.getByRole("dialog", { name: "Photo 2 of 2", exact: true }).waitFor();
    await shot(page, "photos-viewer-desktop.png");
    await page.keyboard.press("Escape");
    expect(unexpectedConsoleErrors(tab.consoleErrors)).toEqual([]);
    await tab.context.close();
  });

  it("Grandma, on a phone, sees the cover and swipes through the photos of a private profile", async () => {
    const { browser } = journey;
    expect((await parent.request("POST", "/api/user/visibility", { isPublic: false })).status).toBe(
      200,
    );
    const created = await parent.json<CreatedShareLink>("POST", "/api/share-links", {
      label: "Grandma",
    });
    expect(created.status).toBe(201);

    const grandma = await newPage(browser, PHONE);
    const page = grandma.page;
    await page.goto(created.data.url);
    expect(new URL(page.url()).pathname).toBe(`/profile/${username}`);
    const item = page.getByRole("listitem").filter({ hasText: "Grandpa's boat" });
    expect(await loaded(item.locator("img"))).toBe(true);
    await shot(page, "photos-profile-phone.png");

    await item.getByText("Grandpa's boat").click();
    await page.waitForURL(`**/memory/${memory.id}`);
    await page.getByRole("list", { name: PHOTO_MESSAGES.sectionTitle }).waitFor();
    // Seeing, never changing.
    expect(await page.getByRole("button", { name: PHOTO_MESSAGES.add }).count()).toBe(0);
    await page.getByRole("button", { name: "Photo 1 of 2", exact: true }).click();
    const viewer = page.getByRole("dialog", { name: "Photo 1 of 2", exact: true });
    const image = viewer.getByRole("img");
    expect(await loaded(image)).toBe(true);
    // A swipe to the left turns to the next photo.
    const box = await image.boundingBox();
    if (!box) throw new Error("the photo has no box");
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, y, { steps: 5 });
    await page.mouse.up();
    await page.getByRole("dialog", { name: "Photo 2 of 2", exact: true }).waitFor();
    expect(await loaded(page.getByRole("dialog").getByRole("img"))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "photos-viewer-phone.png");
    expect(unexpectedConsoleErrors(grandma.consoleErrors)).toEqual([]);
    await grandma.context.close();
  });

  it("starts a story from a photo on a phone: the photo shows while recording and the memory carries it", async () => {
    const { server, browser, speechSeconds } = journey;
    const tab = await newPage(browser, PHONE);
    await addClientCookies(tab.context, server.url, parent.cookieHeader());
    const page = tab.page;
    await page.goto(server.url);
    const card = page.getByTestId("record-card");
    await card.getByRole("button", { name: PHOTO_MESSAGES.startFromPhoto }).waitFor();
    await card.getByTestId("story-photo-input").setInputFiles(boat);
    const shown = card.getByRole("img", { name: PHOTO_MESSAGES.storyPhoto });
    expect(await loaded(shown)).toBe(true);
    await card.getByRole("button", { name: MESSAGES.startRecording }).click();
    await card.getByRole("button", { name: MESSAGES.stopRecording }).waitFor();
    await shot(page, "photos-story-recording-phone.png");
    expect(await shown.isVisible()).toBe(true);
    await page.waitForTimeout(speechSeconds * 1000 + 800);
    await card.getByRole("button", { name: MESSAGES.stopRecording }).click();
    await page.getByText(MESSAGES.memorySaved, { exact: true }).waitFor({ timeout: 60_000 });
    // Ready for the next story.
    await card.getByRole("button", { name: PHOTO_MESSAGES.startFromPhoto }).waitFor();

    const list = await parent.json<{ items: Memory[] }>("GET", "/api/memories");
    const told = list.data.items.find((item) => item.id !== memory.id);
    expect(told?.photos.map((photo) => [photo.width, photo.height])).toEqual([[1200, 1600]]);
    const item = page.getByRole("list", { name: "Memories" }).getByRole("listitem").first();
    expect(await loaded(item.locator("img"))).toBe(true);
    await shot(page, "photos-story-saved-phone.png");
    expect(unexpectedConsoleErrors(tab.consoleErrors)).toEqual([]);
    await tab.context.close();
  });
});
