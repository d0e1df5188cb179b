import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PHOTO_SIZES } from "../../shared/photos";
import { noisyPhoto } from "../test/image-fixtures";
import { renderPhoto } from "./photo-image";

/** CPU time of this process (every thread, the image library's too), in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe("making a photo's sizes", () => {
  it("makes a 12-megapixel photo's three sizes with well under a second of CPU", async () => {
    const photo = await noisyPhoto(4000, 3000);
    // Once first, so the library's start-up is not counted.
    await renderPhoto(await noisyPhoto(400, 300));
    const started = cpuMs();
    const sizes = await renderPhoto(photo);
    const spent = cpuMs() - started;
    expect(sizes.full).toMatchObject({ width: 4000, height: 3000 });
    expect(sizes.medium.width).toBe(PHOTO_SIZES.medium);
    expect(sizes.thumb.width).toBe(PHOTO_SIZES.thumb);
    expect(spent).toBeLessThan(1000);
    // The full size is plain baseline JPEG (mozjpeg spent about 2 s of CPU on it).
    expect((await sharp(sizes.full.bytes).metadata()).isProgressive).toBe(false);
  }, 60_000);

  it("keeps no decoded image or open file in the image library's cache", () => {
    const { memory, files, items } = sharp.cache();
    expect({ memory: memory.max, files: files.max, items: items.max }).toEqual({
      memory: 0,
      files: 0,
      items: 0,
    });
  });
});
