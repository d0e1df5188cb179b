// `npx tsx scripts/screenshot.ts` (after `npm run build`): the README's screenshot, docs/screenshot.png,
// of the built app with a few memories, taken in Debian's Chromium.
import path from "node:path";
import { ApiClient } from "../e2e/api-client";
import { seedMemory } from "../e2e/fixtures";
import { addClientCookies, launchBrowser, startServer } from "../e2e/harness";

const MEMORIES = [
  {
    title: "The day you first walked",
    transcript: "You let go of the sofa and took three wobbly steps towards the cat.",
    summary: "You let go of the sofa and walked to the cat, laughing all the way.",
    tags: ["first steps", "living room", "cat"],
    recordedAt: "2026-03-14T17:20:00.000Z",
  },
  {
    title: "Building sandcastles at Dunwich",
    transcript: "We built a castle with four towers and you named every one of them.",
    summary: "Four towers, each with a name you chose, until the tide came in.",
    tags: ["beach", "sandcastles", "summer"],
    recordedAt: "2026-07-22T11:05:00.000Z",
  },
  {
    title: "Grandpa's pancake song",
    transcript: "Grandpa sang the pancake song while flipping them higher and higher.",
    summary: "Grandpa's song, and pancakes that nearly touched the ceiling.",
    tags: ["grandpa", "breakfast", "songs"],
    recordedAt: "2026-10-04T08:40:00.000Z",
  },
];

const server = await startServer();
try {
  const owner = new ApiClient(server.url);
  await owner.register("nana");
  for (const memory of MEMORIES) await seedMemory(owner, memory);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 900, height: 1190 } });
    await addClientCookies(context, server.url, owner.cookieHeader());
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByText(MEMORIES[0]?.title ?? "").waitFor();
    await page.screenshot({ path: path.join("docs", "screenshot.png") });
  } finally {
    await browser.close();
  }
} finally {
  await server.cleanup();
}
