import * as DialogPrimitive from "@radix-ui/react-dialog";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useRef } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { PHOTO_MESSAGES, photoSrc } from "../../../../shared/photos";
import type { Photo } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogContent } from "../../../components/ui/dialog";
import { isRightToLeft } from "../../../lib/language";

/** A horizontal swipe longer than this (in CSS pixels) turns to the next or previous photo. */
const SWIPE_PX = 50;

/** Full screen, one photo at its full size: arrows, arrow keys or a swipe turn the pages. */
export function PhotoViewer({
  photos,
  index,
  onIndex,
  onClose,
}: {
  photos: Photo[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const photo = photos[index];
  const startX = useRef<number | null>(null);
  if (!photo) return null;
  const count = photos.length;
  const go = (step: number) => onIndex((index + step + count) % count);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        fullScreen
        className="flex flex-col bg-slate-100 p-2 text-slate-900"
        aria-describedby={undefined}
        onKeyDown={(event) => {
          // Right to left, the next photo lies to the left.
          const step = isRightToLeft() ? -1 : 1;
          if (event.key === "ArrowLeft") go(-step);
          if (event.key === "ArrowRight") go(step);
        }}
      >
        <DialogPrimitive.Title className="px-2 py-3 pe-14 text-base font-medium">
          {formatMessage(PHOTO_MESSAGES.view, { index: index + 1, count })}
        </DialogPrimitive.Title>
        <div
          className="flex min-h-0 flex-1 items-center justify-center"
          onPointerDown={(event) => {
            startX.current = event.clientX;
          }}
          onPointerUp={(event) => {
            const from = startX.current;
            startX.current = null;
            if (from === null || count < 2) return;
            const moved = event.clientX - from;
            if (Math.abs(moved) >= SWIPE_PX) go(moved < 0 !== isRightToLeft() ? 1 : -1);
          }}
        >
          <img
            key={photo.id}
            src={photoSrc(photo.url, "full")}
            width={photo.width}
            height={photo.height}
            alt={formatMessage(PHOTO_MESSAGES.view, { index: index + 1, count })}
            className="h-auto max-h-full w-auto max-w-full touch-pan-y object-contain select-none"
            draggable={false}
          />
        </div>
        {count > 1 ? (
          <div className="flex justify-center gap-4 py-2">
            <Button
              variant="secondary"
              size="icon"
              aria-label={PHOTO_MESSAGES.previous}
              onClick={() => go(-1)}
            >
              <ChevronLeft className="h-5 w-5 rtl:-scale-x-100" aria-hidden="true" />
            </Button>
            <Button
              variant="secondary"
              size="icon"
              aria-label={PHOTO_MESSAGES.next}
              onClick={() => go(1)}
            >
              <ChevronRight className="h-5 w-5 rtl:-scale-x-100" aria-hidden="true" />
            </Button>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
