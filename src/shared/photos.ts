import { translatable } from "./i18n/page-words";
/**
 * Photos beside a memory (ADR 0043): limits, sizes and texts shared by client, server and tests
 * (the request and response schemas are in schemas.ts). No zod here: the home page's lists import
 * this for their covers.
 */
export const PHOTOS_PER_MEMORY = 10;
/** Images over this many pixels are refused before they are decoded (a decompression bomb). */
export const PHOTO_MAX_PIXELS = 60_000_000;
/**
 * Images larger than this once decoded (width x height x channels x bytes per channel, read from
 * the header) are refused before they are decoded: the work of making a photo grows with it. A
 * 60-megapixel colour photo at 8 bits per channel fits; a 16-bit or transparent one must be smaller.
 */
export const PHOTO_MAX_DECODED_BYTES = PHOTO_MAX_PIXELS * 3;
/** The stored sizes and the longest side of each, in pixels. */
export const PHOTO_SIZES = { thumb: 320, medium: 1600, full: 4096 } as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;
export const PHOTO_SIZE_NAMES = Object.keys(PHOTO_SIZES) as PhotoSize[];
/** The multipart field a photo is sent in. */
export const PHOTO_FIELD = "photo";
/** What the file picker offers; the server decides by the bytes, never by this. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/avif";

/** The URL of a photo in one size. */
export function photoSrc(url: string, size: PhotoSize): string {
  return `${url}?size=${size}`;
}

/** A `srcset` offering the thumbnail and the medium size, for the browser to choose by width. */
export function photoSrcSet(photo: { url: string; width: number; height: number }): string {
  const longest = Math.max(photo.width, photo.height);
  const widthAt = (side: number) => Math.round((photo.width * Math.min(side, longest)) / longest);
  return [
    `${photoSrc(photo.url, "thumb")} ${widthAt(PHOTO_SIZES.thumb)}w`,
    `${photoSrc(photo.url, "medium")} ${widthAt(PHOTO_SIZES.medium)}w`,
  ].join(", ");
}

export const PHOTO_MESSAGES = translatable("PHOTO_MESSAGES", {
  sectionTitle: "Photos",
  add: "Add photos",
  adding: "Adding photos...",
  remove: "Remove photo",
  arrange: "Arrange",
  startFromPhoto: "Start from a photo",
  storyPhoto: "The photo this story is about",
  storyPhotoRemove: "Choose no photo",
  arrangeDescription: "The first photo is the cover, shown in the lists.",
  makeCover: "Make cover",
  cover: "Cover",
  moveEarlier: "Move earlier",
  moveLater: "Move later",
  close: "Close",
  previous: "Previous photo",
  next: "Next photo",
  added: "Photo added",
  removed: "Photo removed",
  addFailed: "Could not add the photo",
  changeFailed: "Could not change the photos",
  view: "Photo {index} of {count}",
} as const);
