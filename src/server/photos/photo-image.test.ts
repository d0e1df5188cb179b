import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PHOTO_SIZES } from "../../shared/photos";
import { noisyPhoto } from "../test/image-fixtures";
import { renderPhoto } from "./photo-image";

describe("making a photo's sizes", () => {
  // Its time is measured in `npm run bench` (bench/photo-memory.ts), not here: a CPU figure in a
  // test fails on a busy machine.
  it("makes a 12-megapixel photo's three sizes, the full one in plain baseline JPEG", async () => {
    const sizes = await renderPhoto(await noisyPhoto(4000, 3000));
    expect(sizes.full).toMatchObject({ width: 4000, height: 3000 });
    expect(sizes.medium.width).toBe(PHOTO_SIZES.medium);
    expect(sizes.thumb.width).toBe(PHOTO_SIZES.thumb);
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
