import { ArrowDownUp, ImagePlus } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import {
  PHOTO_ACCEPT,
  PHOTO_MESSAGES,
  PHOTOS_PER_MEMORY,
  photoSrc,
  photoSrcSet,
} from "../../../../shared/photos";
import type { Photo } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { toast, toastError } from "../../../components/ui/use-toast";

import { useAddPhotos } from "../api/photos";

// Fetched when opened: a visitor of a shared link never loads them (the memory screen's budget).
const PhotoViewer = lazy(() => import("./photo-viewer").then((m) => ({ default: m.PhotoViewer })));
const ArrangePhotosDialog = lazy(() =>
  import("./arrange-photos-dialog").then((m) => ({ default: m.ArrangePhotosDialog })),
);

/**
 * The memory page's photos: a gallery (tap one to see it full screen) and, for the owner, adding
 * photos and a dialog to order them, choose the cover (the first) and remove them. Nothing at all
 * for others when there are none.
 */
export function MemoryPhotos({
  memoryId,
  photos,
  isOwner,
}: {
  memoryId: string;
  photos: Photo[];
  isOwner: boolean;
}) {
  const [viewing, setViewing] = useState<number | null>(null);
  const [arranging, setArranging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const add = useAddPhotos(memoryId);
  if (photos.length === 0 && !isOwner) return null;
  const room = PHOTOS_PER_MEMORY - photos.length;

  const onFiles = async (files: File[]) => {
    if (files.length === 0) return;
    try {
      await add.mutateAsync(files.slice(0, room));
      toast({ title: PHOTO_MESSAGES.added });
    } catch (error) {
      toastError(PHOTO_MESSAGES.addFailed, error);
    }
  };

  return (
    <Card className="space-y-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">
          {PHOTO_MESSAGES.sectionTitle}
          {isOwner ? (
            <span className="ms-2 text-sm font-normal text-slate-700">
              {photos.length}/{PHOTOS_PER_MEMORY}
            </span>
          ) : null}
        </h2>
        {isOwner ? (
          <div className="flex gap-2">
            {photos.length > 1 ? (
              <Button variant="outline" className="min-h-11" onClick={() => setArranging(true)}>
                <ArrowDownUp className="h-4 w-4" aria-hidden="true" />
                {PHOTO_MESSAGES.arrange}
              </Button>
            ) : null}
            {room > 0 ? (
              <Button
                variant="secondary"
                className="min-h-11"
                disabled={add.isPending}
                onClick={() => input.current?.click()}
              >
                <ImagePlus className="h-4 w-4" aria-hidden="true" />
                {add.isPending ? PHOTO_MESSAGES.adding : PHOTO_MESSAGES.add}
              </Button>
            ) : null}
            <input
              ref={input}
              type="file"
              accept={PHOTO_ACCEPT}
              multiple
              hidden
              data-testid="photo-input"
              onChange={(event) => {
                const files = Array.from(event.currentTarget.files ?? []);
                event.currentTarget.value = "";
                void onFiles(files);
              }}
            />
          </div>
        ) : null}
      </div>
      {photos.length > 0 ? (
        <ul
          className="grid grid-cols-2 gap-3 sm:grid-cols-3"
          aria-label={PHOTO_MESSAGES.sectionTitle}
        >
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <button
                type="button"
                className="relative block w-full overflow-hidden rounded-lg bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
                onClick={() => setViewing(index)}
                aria-label={formatMessage(PHOTO_MESSAGES.view, {
                  index: index + 1,
                  count: photos.length,
                })}
              >
                <img
                  src={photoSrc(photo.url, "medium")}
                  srcSet={photoSrcSet(photo)}
                  sizes="(min-width: 640px) 18rem, 50vw"
                  width={photo.width}
                  height={photo.height}
                  loading={index < 3 ? "eager" : "lazy"}
                  decoding="async"
                  alt=""
                  className="aspect-square h-auto w-full object-cover"
                />
                {index === 0 && photos.length > 1 ? (
                  <span className="absolute top-1 start-1 rounded bg-white/90 px-2 py-0.5 text-xs font-medium text-slate-900">
                    {PHOTO_MESSAGES.cover}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {viewing !== null ? (
        <Suspense fallback={null}>
          <PhotoViewer
            photos={photos}
            index={viewing}
            onIndex={setViewing}
            onClose={() => setViewing(null)}
          />
        </Suspense>
      ) : null}
      {arranging ? (
        <Suspense fallback={null}>
          <ArrangePhotosDialog
            memoryId={memoryId}
            photos={photos}
            onClose={() => setArranging(false)}
          />
        </Suspense>
      ) : null}
    </Card>
  );
}
