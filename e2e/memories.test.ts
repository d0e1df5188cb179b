import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, SessionService } from "../src/server/auth/session.service";
import { SessionsRepo } from "../src/server/auth/sessions.repo";
import { loadConfig } from "../src/server/config";
import { openDatabase } from "../src/server/db/connection";
import { MemoriesRepo } from "../src/server/memories/memories.repo";
import { UsersRepo } from "../src/server/users/users.repo";
import { MESSAGES } from "../src/shared/messages";
import {
  freePort,
  launchBrowser,
  newPage,
  type RunningServer,
  startServer,
  unexpectedConsoleErrors,
} from "./harness";

/** Seeds a user with 20 memories and a session straight into the server's SQLite file. */
async function seed(dataDir: string): Promise<{ token: string }> {
  const config = loadConfig({ DATA_DIR: dataDir });
  const database = await openDatabase({ kind: "sqlite", file: path.join(dataDir, "journal.db") });
  try {
    const user = await new UsersRepo(database.db).create({
      username: "nana",
      displayName: "Nana",
      email: null,
      passwordHash: "unused",
      isPublic: true,
    });
    const memories = new MemoriesRepo(database.db, database.kind);
    const start = Date.parse("2024-01-01T10:00:00.000Z");
    for (let i = 0; i < 20; i++) {
      await memories.insert({
        userId: user.id,
        audioId: null,
        title: i === 7 ? "Building castles at the beach" : `Quiet afternoon ${i}`,
        transcript: i === 7 ? "We built castles with grandpa." : "We read a story.",
        summary: i === 7 ? "My darling, the castles were tall." : "My darling, we read together.",
        scores: {
          meaningfulness: 8,
          cuteness: 9,
          excitement: 7,
          interest: 6,
          uniqueness: 5,
          overall: 8,
        },
        recordedAt: new Date(start + i * 86_400_000).toISOString(),
        tags: i === 7 ? ["beach"] : ["reading"],
        status: "saved",
      });
    }
    const session = await new SessionService(new SessionsRepo(database.db), config).start(user.id);
    return { token: session.token };
  } finally {
    await database.close();
  }
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

const listItems = (page: Page) =>
  page.getByRole("list", { name: "Memories" }).getByRole("listitem");

describe("living with memories in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "vmj-e2e-memories-"));
    ({ token } = await seed(dataDir));
    server = await startServer({}, { dataDir, port: await freePort() });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists, pages, searches, edits, opens and deletes memories", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await context.addCookies([
      { name: SESSION_COOKIE, value: token, url: server.url, httpOnly: true, sameSite: "Lax" },
    ]);
    await page.goto(server.url);

    // The list: 15 of 20, newest first, then page 2.
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await expect.poll(() => listItems(page).count()).toBe(15);
    expect(await listItems(page).first().textContent()).toContain("Quiet afternoon 19");
    await page.getByRole("button", { name: "Page 2" }).click();
    await expect.poll(() => listItems(page).count()).toBe(5);
    expect(await listItems(page).last().textContent()).toContain("Quiet afternoon 0");

    // A search by prefix goes back to page 1 and finds the one memory.
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("castl");
    await expect.poll(() => listItems(page).count()).toBe(1);
    expect(await listItems(page).first().textContent()).toContain("Building castles at the beach");

    // Edit its title and tags in the dialog.
    await page.getByRole("button", { name: "Edit Building castles at the beach" }).click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.editMemory });
    await dialog.getByLabel("Title").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel("Title").fill("Sandcastle day with grandpa");
    await dialog.getByLabel("New tag").fill("grandpa");
    await dialog.getByLabel("New tag").press("Enter");
    await dialog.getByText("2/5 tags used").waitFor();
    await dialog.getByRole("button", { name: MESSAGES.saveChanges }).click();
    await page.getByText(MESSAGES.memoryUpdated).first().waitFor();
    await dialog.waitFor({ state: "detached" });
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("grandpa");
    await page.getByRole("link", { name: /Sandcastle day with grandpa/ }).waitFor();
    expect(await listItems(page).first().textContent()).toContain("grandpa");

    // Open it: transcript, summary, scores and tags.
    await page.getByRole("link", { name: /Sandcastle day with grandpa/ }).click();
    await page.getByRole("heading", { name: "Sandcastle day with grandpa" }).waitFor();
    const memoryId = new URL(page.url()).pathname.replace("/memory/", "");
    await page.getByText("We built castles with grandpa.").waitFor();
    await page.getByRole("button", { name: MESSAGES.memoryScores }).click();
    await page.getByText("9/10").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(
      await page
        .getByTestId("score-bar-cuteness")
        .evaluate((el) => (el as HTMLElement).style.width),
    ).toBe("90%");

    // Delete it by typing 'delete'; home no longer lists it.
    await page.getByRole("button", { name: "Delete memory" }).click();
    const confirm = page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true });
    await confirm.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel("Confirmation").fill("DELETE");
    await confirm.click();
    await page.getByText(MESSAGES.memoryDeleted).first().waitFor();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("grandpa");
    await page.getByText(MESSAGES.noMemoriesFound).waitFor();
    await page.getByPlaceholder(MESSAGES.searchPlaceholder).fill("");
    await expect.poll(() => listItems(page).count()).toBe(15);
    await page.getByRole("button", { name: "Page 2" }).click();
    await expect.poll(() => listItems(page).count()).toBe(4);

    // The memory is gone for good: its address now answers 404.
    const res = await page.request.get(`${server.url}/api/memories/${memoryId}`);
    expect(res.status()).toBe(404);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });

  it("shows the public list on the profile page to a visitor, without edit buttons", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    await page.goto(`${server.url}/profile/nana`);
    await expect.poll(() => listItems(page).count()).toBe(15);
    expect(await page.getByRole("button", { name: /^Edit / }).count()).toBe(0);
    await page.getByPlaceholder(MESSAGES.searchTheseMemories).fill("afternoon 3");
    await expect.poll(() => listItems(page).count()).toBeGreaterThan(0);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
    await context.close();
  });
});
