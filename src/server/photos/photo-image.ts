import sharp, { type JpegOptions, type Metadata, type Sharp } from "sharp";
import {
  PHOTO_MAX_DECODED_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_SIZES,
  type PhotoSize,
} from "../../shared/photos";
import { badRequest } from "../http-errors";

/**
 * Photos made at once by this process. Each holds one thread of Node's shared pool (4 by default)
 * for as long as it takes, and that pool also serves every file read, `/api/health`'s storage check
 * and playback: one at a time leaves the rest of the pool to them. The others wait their turn.
 */
export const PHOTOS_AT_ONCE = 1;
// One thread of libvips' own per photo: making photos never takes more than a core from requests.
sharp.concurrency(1);
// Every upload is a new image: a cache of decoded images and open files only holds memory.
sharp.cache(false);

/** Runs at most `free` tasks at once; the others wait, first come first served. */
class Slots {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

const slots = new Slots(PHOTOS_AT_ONCE);

/** One stored size of a photo: always a JPEG made by us. */
export interface PhotoRendition {
  bytes: Buffer;
  width: number;
  height: number;
}

export type PhotoRenditions = Record<PhotoSize, PhotoRendition>;

export const PHOTO_CONTENT_TYPE = "image/jpeg";

/** The formats the prebuilt image library decodes (AVIF arrives as `heif`). */
const ACCEPTED = new Set(["jpeg", "png", "webp", "heif"]);
/** ISO-BMFF brands of HEIC/HEIF photos (HEVC inside), which the prebuilt library cannot decode. */
const HEIC_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]);

function isHeic(head: Buffer): boolean {
  if (head.length < 12 || head.toString("latin1", 4, 8) !== "ftyp") return false;
  return HEIC_BRANDS.has(head.toString("latin1", 8, 12));
}

/** Bytes per channel of each pixel format libvips decodes to (`Metadata.depth`). */
const BYTES_PER_CHANNEL: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/** Width x height x channels x bytes per channel, from the header; an unknown depth counts 4. */
function decodedBytes(metadata: Metadata): number {
  const { width = 0, height = 0, channels = 4, depth = "" } = metadata;
  return width * height * channels * (BYTES_PER_CHANNEL[depth] ?? 4);
}

/**
 * Reads the header only (no pixels) and refuses what is not a JPEG, PNG, WebP or AVIF the library
 * decodes, has more than PHOTO_MAX_PIXELS (a decompression bomb), or would be more than
 * PHOTO_MAX_DECODED_BYTES once decoded (a small file of 16-bit pixels costing seconds to make),
 * before any decoding.
 */
async function checkedHeader(input: Buffer): Promise<Metadata> {
  if (isHeic(input)) throw badRequest("photo.heic");
  let metadata: Metadata;
  try {
    // Only the header is read here, so the size limit is checked below by us.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest("photo.not_an_image");
  }
  if (!ACCEPTED.has(metadata.format ?? "")) throw badRequest("photo.not_an_image");
  if (metadata.format === "heif" && metadata.compression !== "av1") {
    throw badRequest("photo.heic");
  }
  const { width = 0, height = 0 } = metadata;
  if (width * height > PHOTO_MAX_PIXELS) throw badRequest("photo.too_many_pixels");
  if (decodedBytes(metadata) > PHOTO_MAX_DECODED_BYTES) throw badRequest("photo.too_large_to_open");
  return metadata;
}

const DECODE = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" } as const;

/**
 * JPEG settings of each size. The full size, made once and rarely viewed, is plain libjpeg-turbo:
 * mozjpeg made it about 20% smaller for ten times the CPU (about 2 s of 12 megapixels). The
 * smaller sizes, seen in every gallery and list, keep mozjpeg: a third smaller for a few tens of
 * milliseconds.
 */
const JPEG = {
  full: { quality: 85 },
  medium: { quality: 82, mozjpeg: true },
  thumb: { quality: 78, mozjpeg: true },
} as const satisfies Record<PhotoSize, JpegOptions>;

/** The medium size and the thumbnail, from a full-size JPEG (no second decode of an original). */
async function smallerSizes(full: Buffer): Promise<Omit<PhotoRenditions, "full">> {
  const medium = await encode(sharp(full, DECODE), "medium");
  const thumb = await encode(sharp(full, DECODE), "thumb");
  return { medium, thumb };
}

/**
 * Decodes an uploaded image and makes the three stored sizes from it: orientation applied to the
 * pixels, transparency laid on white, every metadata block (EXIF with GPS and serials, XMP, ICC,
 * embedded thumbnails) left behind, because only pixels go into the new JPEGs. The header is read
 * first, so an image of absurd dimensions is refused before any decoding. Throws a 400 HttpError
 * with the product's words for anything that is not a readable JPEG, PNG, WebP or AVIF.
 */
export async function renderPhoto(input: Buffer): Promise<PhotoRenditions> {
  await checkedHeader(input);
  return slots.run(() => renderChecked(input));
}

/** The three sizes of an image whose header passed `checkedHeader`; run inside a slot. */
async function renderChecked(input: Buffer): Promise<PhotoRenditions> {
  try {
    const full = await encode(sharp(input, DECODE), "full");
    return { full, ...(await smallerSizes(full.bytes)) };
  } catch {
    throw badRequest("photo.unreadable");
  }
}

/**
 * The sizes of a photo coming back from a backup. A full-size JPEG as this server makes them (no
 * metadata, upright, within the full size) is kept byte for byte and only the smaller sizes are
 * made again; anything else is treated as a new upload (`renderPhoto`), so what is served is still
 * only what the server produced. Throws 400 like an upload.
 */
export async function renderRestored(input: Buffer): Promise<PhotoRenditions> {
  const header = await checkedHeader(input);
  const { width = 0, height = 0 } = header;
  const ours =
    header.format === "jpeg" &&
    !header.exif &&
    !header.xmp &&
    !header.iptc &&
    !header.icc &&
    (header.orientation ?? 1) === 1 &&
    Math.max(width, height) <= PHOTO_SIZES.full;
  if (!ours) return slots.run(() => renderChecked(input));
  return slots.run(async () => {
    try {
      return { full: { bytes: input, width, height }, ...(await smallerSizes(input)) };
    } catch {
      throw badRequest("photo.unreadable");
    }
  });
}

async function encode(image: Sharp, size: PhotoSize) {
  const longest = PHOTO_SIZES[size];
  const { data, info } = await image
    .rotate()
    .resize({ width: longest, height: longest, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg(JPEG[size])
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
