import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultStubHandler,
  STUB_TRANSCRIPT,
  transcriptionReply,
} from "../src/server/test/openai-stub";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { type JourneySetup, startJourney } from "./fixtures";
import { addClientCookies, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const FIRST = "Today we went to the beach with Grandpa";
const SECOND = "and you built a sandcastle.";
/** The recording's length; the stub's two segments share the first 5 seconds of it. */
const SECONDS = 6;

/** Whether the element is wholly inside the viewport, below `under`'s bottom edge when given. */
async function onScreen(page: Page, element: Locator, under?: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const cover = under ? await under.boundingBox() : null;
  const floor = cover ? cover.y + cover.height : 0;
  const height = await page.evaluate(() => window.innerHeight);
  return box !== null && box.y >= floor - 1 && box.y + box.height <= height + 1;
}

describe("following a memory's transcript while it plays, in Chromium", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let owner: ApiClient;
  let memory: Memory;

  beforeAll(async () => {
    // An OpenAI-compatible server answering verbose_json with two timed segments.
    journey = await startJourney({
      name: "follow-along",
      stub: (request) =>
        request.path.endsWith("/audio/transcriptions")
          ? transcriptionReply(request, STUB_TRANSCRIPT, 5)
          : defaultStubHandler(request),
    });
    ({ server, browser } = journey);
    owner = new ApiClient(server.url);
    await owner.register("follow_owner");
    const mp3 = path.join(journey.workDir, "story.mp3");
    execFileSync("ffmpeg", [
      ...["-loglevel", "error", "-f", "lavfi", "-i", `sine=frequency=330:duration=${SECONDS}`],
      ...["-ac", "1", "-b:a", "64k", mp3],
    ]);
    const upload = await owner.upload(readFileSync(mp3));
    const { url } = (await upload.json()) as { url: string };
    const created = await owner.json<Memory>("POST", "/api/memories/process", { audioUrl: url });
    expect(created.status).toBe(201);
    // Processed by the server's worker: asked until it is no longer processing.
    const deadline = Date.now() + 60_000;
    while (
      (await owner.json<Memory>("GET", `/api/memories/${created.data.id}`)).data.status ===
      "processing"
    ) {
      if (Date.now() > deadline) throw new Error("still processing");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    memory = (await owner.json<Memory>("GET", `/api/memories/${created.data.id}`)).data;
    expect(memory.status).toBe("saved");
  }, 120_000);
  afterAll(async () => {
    await journey?.close();
  });

  it("serves the captions as WebVTT, cues in order inside the recording", async () => {
    const res = await owner.request("GET", `/api/memories/${memory.id}/captions.vtt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    const text = await res.text();
    expect(text.startsWith("WEBVTT\n\n")).toBe(true);
    const times = [
      ...text.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})/g),
    ].map((m) => [Number(m[3]) + Number(m[2]) * 60, Number(m[6]) + Number(m[5]) * 60]);
    expect(times).toEqual([
      [0, 2.5],
      [2.5, 5],
    ]);
    expect(text).toContain(`\n${FIRST}\n`);
    expect(text).toContain(`\n${SECOND}\n`);
    // Nobody else hears it, nor reads it.
    const stranger = new ApiClient(server.url);
    expect((await stranger.request("GET", `/api/memories/${memory.id}/captions.vtt`)).status).toBe(
      (await stranger.request("GET", memory.audioUrl)).status,
    );
  });

  it("highlights the sentence being played, moves on with the audio, and seeks on a tap", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(`${server.url}/memory/${memory.id}`);
    const first = page.getByRole("button", { name: FIRST });
    const second = page.getByRole("button", { name: SECOND });
    await first.waitFor();
    // The player carries the captions track.
    expect(await page.locator("audio track").getAttribute("src")).toBe(
      `/api/memories/${memory.id}/captions.vtt`,
    );
    expect(await page.locator("audio track").getAttribute("kind")).toBe("captions");

    await page.getByRole("button", { name: "Play" }).click();
    await expect.poll(() => first.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    await expect.poll(() => second.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    expect(await first.getAttribute("aria-current")).toBeNull();

    // A tap on the first sentence plays from its start.
    await first.click();
    await expect.poll(() => first.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    const time = await page.locator("audio").evaluate((el) => (el as HTMLAudioElement).currentTime);
    expect(time).toBeLessThan(2.5);
    await page.getByRole("button", { name: "Pause" }).click();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  }, 60_000);

  it("opens a memory found by a search at the first sentence that matched", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(`${server.url}/?q=sandcastle`);
    await page.getByRole("link", { name: new RegExp(memory.title.slice(0, 20)) }).click();
    const second = page.getByRole("button", { name: SECOND });
    await expect.poll(() => second.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    const time = await page.locator("audio").evaluate((el) => (el as HTMLAudioElement).currentTime);
    expect(time).toBe(2.5);
    expect(new URL(page.url()).search).toBe("?q=sandcastle");
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  }, 60_000);

  it("on a phone, keeps the player on screen while it plays and the sentence spoken in view", async () => {
    const { page, context, consoleErrors } = await newPage(browser, {
      viewport: { width: 390, height: 844 },
    });
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(`${server.url}/memory/${memory.id}`);
    const first = page.getByRole("button", { name: FIRST });
    const second = page.getByRole("button", { name: SECOND });
    const player = page.getByRole("group", { name: MESSAGES.recording });
    await first.waitFor();
    // The transcript comes before the photos, under the player.
    expect(
      await page.evaluate(() => {
        const transcript = document.querySelector("[data-testid=transcript]");
        const photos = document.querySelector("[data-testid=photo-input]");
        if (!transcript || !photos) return false;
        return Boolean(
          transcript.compareDocumentPosition(photos) & Node.DOCUMENT_POSITION_FOLLOWING,
        );
      }),
    ).toBe(true);
    // As long as a memory with many photos and comments, below the transcript.
    await page.evaluate(() => {
      const room = document.createElement("div");
      room.style.height = "2000px";
      document.querySelector("article")?.append(room);
    });
    // Slowed down, so each sentence lasts long enough to scroll around in.
    await page.locator("audio").evaluate((el) => {
      (el as HTMLAudioElement).playbackRate = 0.5;
    });
    await page.getByRole("button", { name: MESSAGES.play }).click();
    await expect.poll(() => first.getAttribute("aria-current"), { timeout: 10_000 }).toBe("true");
    await expect.poll(() => onScreen(page, first, player), { timeout: 5_000 }).toBe(true);

    // Scrolled by hand to the bottom: the player stays at the top, and the page stays where the
    // reader left it as the voice moves on.
    // A finger's swipe, as the page sees it: a touchmove, then the page scrolled to its end.
    await page.evaluate(() => {
      window.dispatchEvent(new Event("touchmove"));
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
    });
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(1000);
    expect(await onScreen(page, player)).toBe(true);
    expect(await page.getByRole("button", { name: MESSAGES.pause }).isVisible()).toBe(true);
    await expect.poll(() => second.getAttribute("aria-current"), { timeout: 15_000 }).toBe("true");
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(await onScreen(page, player)).toBe(true);

    // Following again brings the sentence being spoken back into view, below the player.
    const follow = page.getByRole("button", { name: MESSAGES.followTheVoice });
    await follow.click();
    await expect.poll(() => follow.count()).toBe(0);
    await expect.poll(() => onScreen(page, second, player), { timeout: 5_000 }).toBe(true);
    expect(await onScreen(page, player)).toBe(true);
    await page.getByRole("button", { name: MESSAGES.pause }).click();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  }, 60_000);
});
