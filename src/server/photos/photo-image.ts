import sharp, { type Metadata, type Sharp } from "sharp";
import { PHOTO_MAX_PIXELS, PHOTO_SIZES, type PhotoSize } from "../../shared/photos";
import { badRequest } from "../http-errors";

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

/**
 * Reads the header only (no pixels) and refuses what is not a JPEG, PNG, WebP or AVIF the library
 * decodes, or has more than PHOTO_MAX_PIXELS (a decompression bomb), before any decoding.
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
  return metadata;
}

const DECODE = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" } as const;

/** The medium size and the thumbnail, from a full-size JPEG (no second decode of an original). */
async function smallerSizes(full: Buffer): Promise<Omit<PhotoRenditions, "full">> {
  const medium = await encode(sharp(full, DECODE), PHOTO_SIZES.medium, 82);
  const thumb = await encode(sharp(full, DECODE), PHOTO_SIZES.thumb, 78);
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
  try {
    const full = await encode(sharp(input, DECODE), PHOTO_SIZES.full, 88);
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
  if (!ours) return renderPhoto(input);
  try {
    return { full: { bytes: input, width, height }, ...(await smallerSizes(input)) };
  } catch {
    throw badRequest("photo.unreadable");
  }
}

async function encode(image: Sharp, longest: number, quality: number) {
  const { data, info } = await image
    .rotate()
    .resize({ width: longest, height: longest, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
