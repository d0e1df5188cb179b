/**
 * Renders the installed app's PNG icons from the favicon's drawing, in Chromium (the drawing engine
 * the icons are meant to match). The PNGs are committed in src/client/public/; run this again
 * (`npx tsx scripts/make-icons.ts`) after changing favicon.svg.
 *
 * - pwa-192x192.png, pwa-512x512.png: the round badge as it is ("any" purpose).
 * - maskable-icon-512x512.png: full-bleed purple with the microphone inside the 80% safe zone, for
 *   launchers that cut icons to their own shape (Android).
 * - apple-touch-icon-180x180.png: full-bleed as well (iOS rounds the corners itself).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/harness.ts";

const PUBLIC_DIR = path.resolve("src/client/public");

const favicon = await readFile(path.join(PUBLIC_DIR, "favicon.svg"), "utf8");
const badge = favicon.replace(/<title>.*?<\/title>/, "");
const purple = /<circle[^>]*fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1] ?? "#7c3aed";
// The microphone: everything after the badge's circle.
const glyph = badge.replace(/^.*?<circle[^>]*\/>/s, "").replace(/<\/svg>\s*$/, "");
// Centred and a little smaller than on the badge, well inside the maskable safe zone (radius 40%).
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${purple}"/><g transform="translate(16 16) scale(0.8) translate(-16 -16.5)">${glyph}</g></svg>`;

const icons = [
  { file: "pwa-192x192.png", size: 192, svg: badge },
  { file: "pwa-512x512.png", size: 512, svg: badge },
  { file: "maskable-icon-512x512.png", size: 512, svg: fullBleed },
  { file: "apple-touch-icon-180x180.png", size: 180, svg: fullBleed },
];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  for (const icon of icons) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    const sized = icon.svg.replace("<svg ", `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${sized}</body></html>`,
    );
    await page.screenshot({
      path: path.join(PUBLIC_DIR, icon.file),
      omitBackground: true,
      clip: { x: 0, y: 0, width: icon.size, height: icon.size },
    });
    process.stdout.write(`${icon.file}\n`);
  }
} finally {
  await browser.close();
}
