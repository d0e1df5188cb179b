import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../src/shared/messages";
import type { Memory } from "../src/shared/schemas";
import { ApiClient } from "./api-client";
import { seedMemory } from "./fixtures";
import {
  addClientCookies,
  launchBrowser,
  newPage,
  type RunningServer,
  startServer,
} from "./harness";

/** What the page fetched (path, when asked, when done) and when it first painted content. */
interface Timeline {
  firstContentfulPaint: number;
  fetched: { path: string; start: number; end: number }[];
}

const timeline = (): Timeline => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  return {
    firstContentfulPaint: paint?.startTime ?? Number.NaN,
    fetched: resources.map((r) => ({
      path: new URL(r.name).pathname,
      start: r.startTime,
      end: r.responseEnd,
    })),
  };
};

// What the page carries is painted without being asked for (ADR 0031, ADR 0035).
describe("the first paint", () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let cookie: string;
  let memory: Memory;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const owner = new ApiClient(server.url);
    await owner.register("first_paint_user");
    memory = await seedMemory(owner, {
      title: "The beach",
      transcript: "We built a sandcastle.",
      summary: "You built a sandcastle.",
    });
    cookie = owner.cookieHeader();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  async function loggedInPage() {
    const opened = await newPage(browser);
    await addClientCookies(opened.context, server.url, cookie);
    return opened;
  }

  it("logged in, the home page carries the user and the question: neither is asked for", async () => {
    const { page, context, consoleErrors } = await loggedInPage();
    await page.goto(server.url);
    await page.getByTestId("question-text").waitFor();
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await page.getByRole("button", { name: MESSAGES.userMenu, expanded: false }).waitFor();
    const { firstContentfulPaint, fetched } = await page.evaluate(timeline);
    expect(firstContentfulPaint).toBeGreaterThan(0);
    expect(fetched.map((r) => r.path)).not.toContain("/api/question");
    expect(fetched.map((r) => r.path)).not.toContain("/api/user");
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("paints the memory the page carries without asking for it", async () => {
    const { page, context, consoleErrors } = await loggedInPage();
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    // The comments card reads "No comments" while its list loads: wait for the list's answer.
    const commentsAnswered = page.waitForResponse(
      (response) => new URL(response.url()).pathname === `/api/memories/${memory.id}/comments`,
    );
    await page.goto(`${server.url}/memory/${memory.id}`);
    await page.getByRole("heading", { name: "The beach" }).waitFor();
    await commentsAnswered;
    // The memory and its owner came with the page (ADR 0031): never asked for, yet its comments are.
    expect(asked).not.toContain(`/api/memories/${memory.id}`);
    expect(asked).not.toContain(`/api/memories/${memory.id}/owner`);
    expect(asked).toContain(`/api/memories/${memory.id}/comments`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  for (const [size, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    it(`shows a visitor the memory's words before the page's code arrives, where the page puts them (${size})`, async () => {
      const { page, context, consoleErrors } = await newPage(browser, { viewport });
      // The memory page's own code, held back until released.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let heldBack = 0;
      await page.route(/\/assets\/memory-screen-[\w-]+\.js$/, async (route) => {
        heldBack += 1;
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/memory/${memory.id}`);
      const preview = page.getByTestId("memory-preview");
      await preview.waitFor();
      // The screen's code was asked for and is held (its file name is what the route matches).
      await expect.poll(() => heldBack).toBe(1);
      const places = async () => ({
        title: await page.getByRole("heading", { level: 1, name: "The beach" }).boundingBox(),
        // The paragraph: on the page its sentences are buttons (follow-along), whose inline boxes
        // sit inside the line box the preview's plain text fills.
        transcript: await page.getByTestId("transcript").boundingBox(),
        summary: await page.getByText("You built a sandcastle.", { exact: true }).boundingBox(),
      });
      const previewed = await places();
      // Whose memory it is came with the page too: the preview names them where the page does.
      expect(await preview.getByTestId("memory-owner").textContent()).toContain("first_paint_user");
      expect(previewed.transcript?.height).toBeGreaterThan(0);
      // The footer waits below the fold: the longer page arriving moves nothing in view.
      const footer = await page.getByRole("contentinfo").boundingBox();
      expect(footer?.y).toBeGreaterThanOrEqual(viewport.height);
      // Nothing of the page's own yet: no player, no comments.
      expect(await page.getByRole("group", { name: MESSAGES.recording }).count()).toBe(0);

      release();
      await page.getByRole("heading", { name: MESSAGES.noComments }).waitFor();
      expect(await preview.count()).toBe(0);
      await page.getByRole("group", { name: MESSAGES.recording }).waitFor();
      const final = await places();
      for (const part of ["title", "transcript", "summary"] as const) {
        for (const edge of ["x", "y", "width", "height"] as const) {
          expect(
            Math.abs((final[part]?.[edge] ?? -1) - (previewed[part]?.[edge] ?? -2)),
            `${part} ${edge}`,
          ).toBeLessThanOrEqual(0.5);
        }
      }
      expect(consoleErrors).toEqual([]);
      await context.close();
    });
  }

  it("paints a public memory to a visitor without asking for it, and answers 404 for one it may not see", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const response = await page.goto(`${server.url}/memory/${memory.id}`);
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { name: "The beach" }).waitFor();
    const { fetched } = await page.evaluate(timeline);
    expect(fetched.map((r) => r.path)).not.toContain(`/api/memories/${memory.id}`);
    expect(consoleErrors).toEqual([]);

    // A memory that is not there: the page says 404 too, and shows the app's 404 page.
    const gone = await page.goto(`${server.url}/memory/not-a-memory`);
    expect(gone?.status()).toBe(404);
    await page
      .getByTestId("not-found")
      .getByRole("heading", { name: MESSAGES.notFoundPage })
      .waitFor();
    await context.close();
  });
});
