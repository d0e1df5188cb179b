import { execFile } from "node:child_process";
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoriesRepo } from "../memories/memories.repo";
import { storeAudioFixture } from "../test/audio-fixtures";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, makeTempDir, type TestApp } from "../test/harness";
import { testJpeg } from "../test/image-fixtures";
import { fixture, multipart } from "../test/upload-helpers";

const run = promisify(execFile);
const APP_URL = "https://journal.example.org";

interface PdfImage {
  page: number;
  width: number;
  height: number;
  ppi: number;
  /** Its printed width in points (72 a inch). */
  printedWidth: number;
}

/** The raster images of a PDF, from `pdfimages -list` (QR codes are vectors, so not among them). */
async function pdfImages(file: string): Promise<PdfImage[]> {
  const { stdout } = await run("pdfimages", ["-list", file]);
  return stdout
    .split("\n")
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      return {
        page: Number(cols[0]),
        width: Number(cols[3]),
        height: Number(cols[4]),
        ppi: Number(cols[12]),
        printedWidth: (Number(cols[3]) / Number(cols[12])) * 72,
      };
    });
}

describe.each(DATABASE_KINDS)("photos in the memory book (%s)", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let dir: string;
  let memoryId: string;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { APP_URL } });
    dir = await makeTempDir("vmj-book-photos-");
    owner = await createUserWithSession(t);
    const audio = await storeAudioFixture(t.database, t.storage, await fixture("tone.mp3"), {
      userId: owner.user.id,
    });
    const memory = await new MemoriesRepo(t.database.db, t.database.kind).insert({
      userId: owner.user.id,
      audioId: audio.id,
      status: "saved",
      title: "The orchard in autumn",
      transcript: "We picked apples until the baskets were full.",
      summary: "My dear, the apples that autumn were the sweetest.",
    });
    await t.services.audio.attach(audio.id, { kind: "memory", id: memory.id }, t.database.db);
    memoryId = memory.id;
    for (const [width, height] of [
      [2400, 1600],
      [1200, 1800],
      [1600, 1600],
    ] as const) {
      const body = multipart(await testJpeg(width, height), {
        field: "photo",
        filename: "p.jpg",
        type: "image/jpeg",
      });
      const res = await t.app.inject({
        method: "POST",
        url: `/api/memories/${memoryId}/photos`,
        payload: body.payload,
        headers: { ...body.headers, cookie: owner.cookie },
      });
      expect(res.statusCode).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("shows the first photo on the cover and the story's photos two by two after its words, at print resolution; the QR code still opens the memory", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/memory-book",
      headers: { cookie: owner.cookie },
    });
    expect(res.statusCode).toBe(200);
    const file = path.join(dir, "book.pdf");
    await writeFile(file, res.rawPayload);

    const images = await pdfImages(file);
    expect(images.map((image) => [image.page, image.width, image.height])).toEqual([
      // The cover: the story's first photo (its cover), at most the page's width.
      [1, 1600, 1067],
      // The story on page 3 (cover, contents): all three photos on its page, two to a row.
      [3, 1600, 1067],
      [3, 1067, 1600],
      [3, 1600, 1600],
    ]);
    // 1,600 pixels over at most half the page's width make well over 150 pixels per inch.
    for (const image of images) expect(image.ppi).toBeGreaterThan(150);
    const contentWidth = 595.28 - 2 * 56;
    for (const image of images.slice(1)) {
      expect(image.printedWidth).toBeLessThanOrEqual(contentWidth / 2 + 1);
    }

    const { stdout: text } = await run("pdftotext", ["-enc", "UTF-8", file, "-"]);
    const pages = text.split("\f");
    expect(pages[0]).toContain("Memory Book");
    // Title, letter and transcript on the story's page, with the photos.
    for (const words of [
      "The orchard in autumn",
      "the apples that autumn were the sweetest",
      "We picked apples",
    ]) {
      expect(pages[2]).toContain(words);
    }

    await run("pdftoppm", ["-r", "150", "-png", "-f", "3", "-l", "3", file, path.join(dir, "p")]);
    const png = (await readdir(dir)).find((name) => name.startsWith("p") && name.endsWith(".png"));
    const { stdout: codes } = await run("zbarimg", ["--raw", "-q", path.join(dir, png ?? "")]);
    // Through the share link made for the book, so it plays on a private profile too.
    expect(codes.trim()).toMatch(new RegExp(`^${APP_URL}/s/[A-Za-z0-9_-]+/${memoryId}$`));
  });
});
