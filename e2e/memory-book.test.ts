import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMORY_BOOK, MESSAGES, profileTitle } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { memoryBookLinkLabel, SHARE_MESSAGES } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { seriousViolations } from "./axe";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, newPage, type RunningServer, unexpectedConsoleErrors } from "./harness";

const run = promisify(execFile);

/** Every QR code in the PDF, decoded: each page rendered at 150 dpi, then read by zbarimg. */
async function qrLinksOf(pdf: string, dir: string): Promise<string[]> {
  await run("pdftoppm", ["-r", "150", "-png", pdf, path.join(dir, "page")]);
  const links: string[] = [];
  for (const image of (await readdir(dir)).filter((name) => /^page-\d+\.png$/.test(name)).sort()) {
    // zbarimg exits 4 when a page has no code (the cover and the contents).
    const { stdout } = await run("zbarimg", ["--raw", "-q", path.join(dir, image)]).catch(
      (error: { code?: number; stdout?: string }) => {
        if (error.code === 4) return { stdout: "" };
        throw error;
      },
    );
    links.push(...stdout.split("\n").filter(Boolean));
  }
  return links;
}

/** Opens `link` in `context` and plays the memory's recording with the page's own Play button. */
async function playsFromLink(context: BrowserContext, link: string, title: string) {
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole("heading", { name: title }).waitFor();
  const audio = page.locator("audio");
  const src = await audio.getAttribute("src");
  const answer = await page.request.get(new URL(src ?? "", link).toString());
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("audio/mpeg");
  await page.getByRole("button", { name: "Play" }).click();
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0.2);
  return page;
}

describe("the printable memory book", () => {
  let journey: JourneySetup;
  let server: RunningServer;
  let browser: Browser;
  let owner: ApiClient;
  const memories: Memory[] = [];

  beforeAll(async () => {
    journey = await startJourney({ name: "book" });
    ({ server, browser } = journey);
    owner = new ApiClient(server.url);
    await owner.register("book_owner");
    for (const [title, tags, recordedAt] of [
      ["Planting the pear tree", ["garden"], "2021-04-10T09:00:00.000Z"],
      ["Γιαγιά's kitchen", ["family"], "2020-02-01T09:00:00.000Z"],
      ["The first tomatoes", ["garden", "summer"], "2021-08-02T09:00:00.000Z"],
    ] as const) {
      memories.push(
        await seedMemory(owner, {
          title,
          transcript: `${title}. Бабушка said it would grow. Ça été une belle journée.`,
          summary: `Dear child, this is ${title.toLowerCase()}.`,
          tags: [...tags],
          recordedAt,
        }),
      );
    }
  });
  afterAll(async () => {
    await journey?.close();
  });

  it("the owner makes a book for one tag; its QR codes open the memories and play them", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await addClientCookies(context, server.url, owner.cookieHeader());
    await page.goto(server.url);
    await page.getByRole("button", { name: MEMORY_BOOK.button }).click();
    const dialog = page.getByRole("dialog", { name: MEMORY_BOOK.button });
    await dialog.getByLabel(MEMORY_BOOK.tag).fill("garden");
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join("test-results", "memory-book-dialog.png") });

    // The journey's server is on 127.0.0.1: the dialog warns and asks before printing its codes.
    await dialog.getByTestId("loopback-warning").waitFor();
    await dialog.getByRole("button", { name: MEMORY_BOOK.create }).click();
    const download = page.waitForEvent("download");
    await dialog.getByRole("button", { name: MEMORY_BOOK.createAnyway }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^memory-book-book_owner-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = path.join(journey.workDir, "book.pdf");
    await file.saveAs(pdf);
    await page.getByText(MEMORY_BOOK.ready).first().waitFor();
    expect(await dialog.count()).toBe(0);

    const { stdout: text } = await run("pdftotext", ["-enc", "UTF-8", pdf, "-"]);
    const body = text.slice(text.lastIndexOf("Contents"));
    const pear = body.lastIndexOf("Planting the pear tree");
    const tomatoes = body.lastIndexOf("The first tomatoes");
    expect(pear).toBeGreaterThan(0);
    expect(tomatoes).toBeGreaterThan(pear);
    expect(text).not.toContain("Γιαγιά's kitchen");
    expect(text).toContain("Бабушка said it would grow. Ça été une belle journée.");

    // Each code opens its memory through the share link made for the book.
    const links = await qrLinksOf(pdf, journey.workDir);
    const garden = memories.filter((memory) => memory.tags.includes("garden"));
    const token = new RegExp(`^${server.url}/s/([A-Za-z0-9_-]{43})/`).exec(links[0] ?? "")?.[1];
    expect(links.sort()).toEqual(
      garden.map((memory) => `${server.url}/s/${token}/${memory.id}`).sort(),
    );

    // A fresh browser that was never logged in plays it.
    const link = links[0] ?? "";
    const target = garden.find((memory) => link.endsWith(`/${memory.id}`));
    const visitor = await browser.newContext();
    const opened = await playsFromLink(visitor, link, target?.title ?? "");
    await opened.screenshot({
      path: path.join("test-results", "memory-book-qr-visitor.png"),
      fullPage: true,
    });
    await visitor.close();

    // A private profile: the page still plays for whoever holds it, through the book's link;
    // the memory stays "not found" for a browser that never opened a code.
    expect((await owner.json("POST", "/api/user/visibility", { isPublic: false })).status).toBe(
      200,
    );
    const relative = await browser.newContext();
    const relativePage = await playsFromLink(relative, link, target?.title ?? "");
    // The page says whose memory it is; Back leads to their memories, never out of the app.
    await relativePage
      .getByTestId("memory-owner")
      .getByRole("link", { name: profileTitle({ username: "book_owner" }) })
      .waitFor();
    await relativePage.getByRole("button", { name: "Back" }).click();
    await relativePage.waitForURL(`${server.url}/profile/book_owner`);
    await relativePage
      .getByRole("heading", { name: profileTitle({ username: "book_owner" }) })
      .waitFor();
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    const answer = await strangerPage.request.get(`${server.url}/api/memories/${target?.id}`);
    expect(answer.status()).toBe(404);
    await stranger.close();

    // The owner revokes the book's link on the Account page: the codes stop, for everyone.
    await page.goto(`${server.url}/account`);
    const label = memoryBookLinkLabel(new Date());
    const row = page.getByTestId("share-link").filter({ hasText: label });
    await row.getByRole("button", { name: `${SHARE_MESSAGES.revoke} ${label}` }).click();
    const confirm = page.getByRole("dialog", { name: SHARE_MESSAGES.revokeTitle });
    await confirm.getByRole("button", { name: SHARE_MESSAGES.revoke }).click();
    await page.getByText(SHARE_MESSAGES.revoked).first().waitFor();
    const late = await browser.newContext();
    const latePage = await late.newPage();
    await latePage.goto(link);
    await latePage.getByRole("heading", { name: MESSAGES.notFoundPage }).waitFor();
    expect(await latePage.locator("audio").count()).toBe(0);
    await late.close();
    const again = await relativePage.request.get(`${server.url}/api/memories/${target?.id}`);
    expect(again.status()).toBe(404);
    await relative.close();

    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
