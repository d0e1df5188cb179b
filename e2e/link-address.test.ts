import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpSink, startSmtpSink } from "../src/server/test/smtp-sink";
import { formatMessage } from "../src/shared/i18n/format";
import { MEMORY_BOOK } from "../src/shared/messages";
import { SHARE_MESSAGES } from "../src/shared/share-links";
import { ApiClient } from "./api-client";
import { type JourneySetup, seedMemory, startJourney } from "./fixtures";
import { addClientCookies, launchBrowser, newPage } from "./harness";

const run = promisify(execFile);
const PHONE = { width: 390, height: 844 };
/** A name for the server as the home network knows it (Chromium resolves it to the server). */
const LAN_HOST = "journal.lan";

describe("links without APP_URL, on the address the owner uses", () => {
  let journey: JourneySetup;
  let sink: SmtpSink;
  let browser: Browser;
  let owner: ApiClient;
  let lanUrl: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    journey = await startJourney({
      name: "link-address",
      env: { SMTP_URL: sink.url, APP_URL: undefined },
    });
    browser = await launchBrowser([`--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`]);
    lanUrl = `http://${LAN_HOST}:${journey.server.port}`;
    owner = new ApiClient(journey.server.url);
    await owner.register("lan_family");
    await seedMemory(owner, { title: "The pear tree", transcript: "We planted it.", summary: "" });
  });
  afterAll(async () => {
    await browser?.close();
    await journey?.close();
    await sink?.close();
  });

  async function phoneAt(base: string): Promise<Page> {
    const { page, context } = await newPage(browser, { viewport: PHONE, acceptDownloads: true });
    await addClientCookies(context, base, owner.cookieHeader());
    return page;
  }

  async function bookCode(page: Page, press: () => Promise<void>): Promise<string> {
    const download = page.waitForEvent("download");
    await press();
    const dir = path.join(journey.workDir, `book-${Date.now()}`);
    const pdf = `${dir}.pdf`;
    await (await download).saveAs(pdf);
    await run("mkdir", ["-p", dir]);
    await run("pdftoppm", ["-r", "150", "-png", "-f", "3", "-l", "3", pdf, path.join(dir, "p")]);
    const [image] = await readdir(dir);
    const { stdout } = await run("zbarimg", ["--raw", "-q", path.join(dir, image ?? "")]);
    return stdout.trim();
  }

  it("says where to open the app in the server's first line", () => {
    expect(journey.server.logs.join("").split("\n")[0]).toBe(`Open ${journey.server.url}`);
  });

  it("on the network address: the link shown, its mail and the book's codes use it, with no warning", async () => {
    const page = await phoneAt(lanUrl);
    await page.goto(`${lanUrl}/account`);
    await page.getByLabel(SHARE_MESSAGES.labelField).fill("Grandpa");
    await page.getByLabel(SHARE_MESSAGES.emailField).fill("grandpa@lan.example");
    await page.getByRole("button", { name: SHARE_MESSAGES.create }).click();
    const created = page.getByTestId("created-share-link");
    await created.waitFor();
    const link = await created.getByRole("textbox").inputValue();
    expect(link).toMatch(new RegExp(`^${lanUrl}/s/[A-Za-z0-9_-]{43}$`));
    expect(await page.getByTestId("loopback-warning").count()).toBe(0);
    const mail = await sink.waitFor((m) => m.to.includes("grandpa@lan.example"));
    expect(mail.text.split(/\r?\n/)).toContain(link);
    await page.screenshot({ path: path.join("test-results", "share-link-lan-phone.png") });

    await page.goto(lanUrl);
    await page.getByRole("button", { name: MEMORY_BOOK.button }).click();
    const dialog = page.getByRole("dialog", { name: MEMORY_BOOK.button });
    expect(await dialog.getByTestId("loopback-warning").count()).toBe(0);
    const code = await bookCode(page, () =>
      dialog.getByRole("button", { name: MEMORY_BOOK.create }).click(),
    );
    expect(code).toMatch(new RegExp(`^${lanUrl}/s/[A-Za-z0-9_-]{43}/`));
  });

  it("on a loopback address: the share form warns, and the book asks before printing such codes", async () => {
    const local = journey.server.url;
    const page = await phoneAt(local);
    await page.goto(`${local}/account`);
    const warning = page.getByTestId("loopback-warning");
    await warning.waitFor();
    expect(await warning.textContent()).toBe(
      formatMessage(SHARE_MESSAGES.loopbackWarning, { base: local }),
    );
    await page.screenshot({ path: path.join("test-results", "share-link-loopback-phone.png") });

    await page.goto(local);
    await page.getByRole("button", { name: MEMORY_BOOK.button }).click();
    const dialog = page.getByRole("dialog", { name: MEMORY_BOOK.button });
    await dialog.getByTestId("loopback-warning").waitFor();
    let downloaded = false;
    page.on("download", () => {
      downloaded = true;
    });
    await dialog.getByRole("button", { name: MEMORY_BOOK.create }).click();
    await dialog.getByText(MEMORY_BOOK.loopbackConfirm).waitFor();
    expect(downloaded).toBe(false);
    await page.screenshot({ path: path.join("test-results", "memory-book-loopback-phone.png") });
    const code = await bookCode(page, () =>
      dialog.getByRole("button", { name: MEMORY_BOOK.createAnyway }).click(),
    );
    expect(code).toMatch(new RegExp(`^${local}/s/`));
  });
});
