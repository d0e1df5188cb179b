import { photoSrc, photoSrcSet } from "../../../../shared/photos";
import type { Photo } from "../../../../shared/schemas";

/** A memory's cover in a list: the thumbnail, loaded only as it scrolls near. */
export function PhotoCover({ photo }: { photo: Photo | undefined }) {
  if (!photo) return null;
  return (
    <img
      src={photoSrc(photo.url, "thumb")}
      srcSet={photoSrcSet(photo)}
      sizes="4rem"
      width={64}
      height={64}
      loading="lazy"
      decoding="async"
      alt=""
      className="h-16 w-16 shrink-0 rounded-lg bg-slate-100 object-cover"
    />
  );
}
