import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Memory } from "../src/shared/schemas";
import { ApiClient, serverFixture } from "./api-client";
import { launchBrowser, newPage, type RunningServer, startServer } from "./harness";

/** Serious and critical axe violations on the page as it is now, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

describe("accessibility of every route (axe)", () => {
  let server: RunningServer;
  let browser: Browser;
  let memoryId: string;
  const username = "a11y_user";
  const password = "a long enough password";

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const api = new ApiClient(server.url);
    await api.register(username, password);
    const upload = await api.upload(await serverFixture("tone.mp3"));
    const { url } = (await upload.json()) as { url: string };
    const created = await api.json<Memory>("POST", "/api/memories", {
      title: "Our day at the beach",
      audioUrl: url,
      transcript: "We built a sandcastle together.",
      summary: "Our day at the beach. You built a sandcastle, my love.",
      tags: ["beach", "sandcastle"],
      recordedAt: new Date().toISOString(),
    });
    expect(created.status).toBe(201);
    memoryId = created.data.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  const routes = () => [
    "/",
    `/memory/${memoryId}`,
    "/reset-password",
    "/reset-password?token=abc",
    `/profile/${username}`,
    "/profile/nobody_here",
    "/watch",
    "/no/such/page",
  ];

  it("has no serious or critical violations when logged out", async () => {
    const { page, context } = await newPage(browser);
    const found: string[] = [];
    for (const route of routes()) {
      await page.goto(`${server.url}${route}`);
      await page.waitForLoadState("networkidle");
      found.push(...(await seriousViolations(page)).map((v) => `${route} ${v}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });

  it("has no serious or critical violations when logged in", async () => {
    const { page, context } = await newPage(browser);
    const login = await page.request.post(`${server.url}/api/login`, {
      data: { username, password },
    });
    expect(login.status()).toBe(200);
    const found: string[] = [];
    for (const route of routes()) {
      await page.goto(`${server.url}${route}`);
      await page.waitForLoadState("networkidle");
      found.push(...(await seriousViolations(page)).map((v) => `${route} ${v}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });
});
