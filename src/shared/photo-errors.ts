import { PHOTO_FIELD, PHOTO_MAX_PIXELS, PHOTOS_PER_MEMORY } from "./photos";

/** A module of its own: the server's refusals never ride in the browser's first scripts. */
const FORMATS = "JPEG, PNG, WebP or AVIF";

/** What the server answers when it refuses a photo (the browser shows the server's words). */
export const PHOTO_ERRORS = {
  notAnImage: `photo: the file is not a supported image (${FORMATS})`,
  heic: `photo: HEIC/HEIF photos cannot be read here; send ${FORMATS} (on an iPhone, share the photo as JPEG or choose "Most Compatible" in the camera settings)`,
  unreadable: `photo: the image cannot be read; send an undamaged ${FORMATS} file`,
  tooManyPixels: `photo: the image has too many pixels (over ${PHOTO_MAX_PIXELS / 1_000_000} megapixels)`,
  tooMany: `A memory can have up to ${PHOTOS_PER_MEMORY} photos.`,
  required: `photo: send one image as multipart/form-data in the field '${PHOTO_FIELD}'`,
  orderMismatch: "ids: list every photo of the memory exactly once",
} as const;
