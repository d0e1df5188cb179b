import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoriesRepo } from "../memories/memories.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, type TestApp } from "../test/harness";
import { multipart } from "../test/upload-helpers";

/** How long `/api/health` may take while photos are being made: a load balancer waits on it. */

/**
 * Photos being made must not stall the rest of the server: the image library works on Node's
 * shared thread pool, which `/api/health`'s storage check (and playback, and every file read)
 * also needs. Here with the default PHOTO_MAX_BYTES (20 MB).
 */
describe("photos under load", () => {
  let t: TestApp;
  let owner: TestUser;
  let repo: MemoriesRepo;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUserWithSession(t);
    repo = new MemoriesRepo(t.database.db, t.database.kind);
  });
  afterAll(async () => t?.cleanup());

  async function postPhoto(image: Buffer) {
    const memory = await repo.insert({ userId: owner.user.id, audioId: null, status: "saved" });
    const body = multipart(image, { field: "photo", filename: "photo.png", type: "image/png" });
    return t.app.inject({
      method: "POST",
      url: `/api/memories/${memory.id}/photos`,
      payload: body.payload,
      headers: { ...body.headers, cookie: owner.cookie },
    });
  }

  /** Posts the images at once and asks `/api/health` every 100 ms until all are answered. */
  async function healthWhilePosting(images: Buffer[]) {
    let done = false;
    const answers = Promise.all(images.map(postPhoto)).finally(() => {
      done = true;
    });
    const health: { status: number; ms: number }[] = [];
    do {
      const started = performance.now();
      const res = await t.app.inject({ method: "GET", url: "/api/health" });
      health.push({ status: res.statusCode, ms: Math.round(performance.now() - started) });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (!done);
    return { answers: await answers, health };
  }

  it("refuses an image too large once decoded from its header, while /api/health stays fast", async () => {
    // Under the byte limit (flat pixels compress well) and 60 megapixels, but 7700 x 7700 x 4
    // channels x 2 bytes is 474 MB once decoded: seconds of the image library's time each.
    const hostile = await sharp({
      create: {
        width: 7700,
        height: 7700,
        channels: 4,
        background: { r: 10, g: 20, b: 30, alpha: 0.5 },
      },
    })
      .toColourspace("rgb16")
      .png()
      .toBuffer();
    expect(hostile.length).toBeLessThan(t.config.PHOTO_MAX_BYTES);
    const { answers, health } = await healthWhilePosting([hostile, hostile, hostile, hostile]);
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe("photo.too_large_to_open");
    }
    for (const probe of health) {
      expect(probe.status).toBe(200);
    }
  }, 60_000);

  it("makes large photos a few at a time, so /api/health stays fast while four are made", async () => {
    // 30 megapixels of colour, within every limit: about a second of work each.
    const large = await sharp({
      create: { width: 6000, height: 5000, channels: 3, background: { r: 90, g: 60, b: 30 } },
    })
      .png()
      .toBuffer();
    const { answers, health } = await healthWhilePosting([large, large, large, large]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    expect(health.length).toBeGreaterThan(1);
    for (const probe of health) {
      expect(probe.status).toBe(200);
    }
  }, 60_000);
});
