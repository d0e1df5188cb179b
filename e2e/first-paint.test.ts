import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureInitialJs } from "../bench/bundle-size";
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

// Order, not speed: what a page asks for before its first paint competes with it (Lighthouse counts
// it on the way to the first and largest paints).
describe("the first paint", () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let cookie: string;
  let memory: Memory;
  let initialScripts: Set<string>;

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
    initialScripts = new Set((await measureInitialJs()).scripts.map((s) => s.path));
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

  it("logged in, the home page asks for no code or data but its own scripts before it paints", async () => {
    const { page, context, consoleErrors } = await loggedInPage();
    await page.goto(server.url);
    await page.getByTestId("question-text").waitFor();
    // The list below the recorder, and the user menu's code, come after the first paint.
    await page.getByRole("heading", { name: MESSAGES.recentMemories }).waitFor();
    await page.getByRole("button", { name: MESSAGES.userMenu, expanded: false }).waitFor();
    const { firstContentfulPaint, fetched } = await page.evaluate(timeline);
    expect(firstContentfulPaint).toBeGreaterThan(0);
    const beforePaint = fetched
      .filter((r) => r.start < firstContentfulPaint)
      .map((r) => r.path)
      // The browser asks for the manifest and icon itself.
      .filter((p) => !initialScripts.has(p) && !/\.css$|\.webmanifest$|\.svg$|\.png$/.test(p));
    expect(beforePaint).toEqual([]);
    // The question came with the page, the user too.
    expect(fetched.map((r) => r.path)).not.toContain("/api/question");
    expect(fetched.map((r) => r.path)).not.toContain("/api/user");
    expect(fetched.some((r) => r.path.startsWith("/assets/user-menu-"))).toBe(true);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("shows a toast raised before the toast area's code has arrived, once it has", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    // The toast area's code loads after the first paint (ADR 0032); held here until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let toasterAsked = false;
    await page.route(/\/assets\/toaster-[\w-]+\.js$/, async (route) => {
      toasterAsked = true;
      await held;
      await route.continue();
    });
    await page.goto(server.url);
    await page.getByRole("button", { name: MESSAGES.logIn }).click();
    const dialog = page.getByRole("dialog", { name: MESSAGES.logIn });
    await dialog.getByLabel("Username").fill("first_paint_user");
    await dialog.getByLabel("Password").fill("a long enough password");
    await dialog.getByRole("button", { name: MESSAGES.logIn }).click();
    await page.getByRole("button", { name: MESSAGES.userMenu }).waitFor();
    expect(toasterAsked).toBe(true);
    expect(await page.getByText(MESSAGES.welcomeBack).count()).toBe(0);
    release();
    await page.getByText(MESSAGES.welcomeBack).first().waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("links the memory page's code in the page, and paints the memory it carries without asking for it", async () => {
    const { page, context, consoleErrors } = await loggedInPage();
    await page.goto(`${server.url}/memory/${memory.id}`);
    await page.getByRole("heading", { name: "The beach" }).waitFor();
    await page.getByRole("heading", { name: MESSAGES.noComments }).waitFor();
    const { fetched } = await page.evaluate(timeline);
    const chunk = fetched.find((r) => r.path.startsWith("/assets/memory-page-"));
    expect(chunk).toBeDefined();
    // Linked by the page, the code is fetched beside the main script, before the main script has
    // run (ADR 0030).
    const html = await (
      await fetch(`${server.url}/memory/${memory.id}`, { headers: { cookie } })
    ).text();
    expect(html).toContain(`<link rel="modulepreload" crossorigin href="${chunk?.path}">`);
    // The memory came with the page (ADR 0031): it is never asked for, yet its comments are.
    expect(fetched.map((r) => r.path)).not.toContain(`/api/memories/${memory.id}`);
    expect(fetched.map((r) => r.path)).toContain(`/api/memories/${memory.id}/comments`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  for (const [size, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    it(`shows a visitor the memory's words before the page's code arrives, where the page puts them (${size})`, async () => {
      const { page, context, consoleErrors } = await newPage(browser, { viewport });
      // The memory page's own code (ADR 0030's preload), held back until released.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/assets\/memory-page-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/memory/${memory.id}`);
      const preview = page.getByTestId("memory-preview");
      await preview.waitFor();
      const places = async () => ({
        title: await page.getByRole("heading", { level: 1, name: "The beach" }).boundingBox(),
        transcript: await page.getByText("We built a sandcastle.", { exact: true }).boundingBox(),
        summary: await page.getByText("You built a sandcastle.", { exact: true }).boundingBox(),
      });
      const previewed = await places();
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
