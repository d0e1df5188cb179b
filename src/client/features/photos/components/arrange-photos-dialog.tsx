import { ArrowDown, ArrowUp, Star, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { formatMessage } from "../../../../shared/i18n/format";
import { PHOTO_MESSAGES, photoSrc } from "../../../../shared/photos";
import type { Photo } from "../../../../shared/schemas";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../../components/ui/dialog";
import { toast, toastError } from "../../../components/ui/use-toast";

import { useRemovePhoto, useReorderPhotos } from "../api/photos";

/** `ids` with the one at `from` moved to `to`. */
function moved(ids: string[], from: number, to: number): string[] {
  const next = [...ids];
  const [id] = next.splice(from, 1);
  if (id !== undefined) next.splice(to, 0, id);
  return next;
}

/** The owner orders a memory's photos, chooses the cover (the first) and removes photos. */
export function ArrangePhotosDialog({
  memoryId,
  photos,
  onClose,
}: {
  memoryId: string;
  photos: Photo[];
  onClose: () => void;
}) {
  const reorder = useReorderPhotos(memoryId);
  const remove = useRemovePhoto(memoryId);
  const busy = reorder.isPending || remove.isPending;
  const ids = photos.map((photo) => photo.id);
  const count = photos.length;

  const change = async (work: Promise<unknown>, done?: string) => {
    try {
      await work;
      if (done) toast({ title: done });
    } catch (error) {
      toastError(PHOTO_MESSAGES.changeFailed, error);
    }
  };
  const control = (label: string, icon: ReactNode, run: () => Promise<unknown>, done?: string) => (
    <Button
      variant="ghost"
      size="icon"
      disabled={busy}
      aria-label={label}
      title={label.split(":")[0]}
      onClick={() => void change(run(), done)}
    >
      {icon}
    </Button>
  );

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-lg">
        <DialogTitle>{PHOTO_MESSAGES.arrange}</DialogTitle>
        <DialogDescription>{PHOTO_MESSAGES.arrangeDescription}</DialogDescription>
        <ol className="mt-4 space-y-2">
          {photos.map((photo, index) => {
            const name = formatMessage(PHOTO_MESSAGES.view, { index: index + 1, count });
            return (
              <li key={photo.id} className="flex items-center gap-2">
                <img
                  src={photoSrc(photo.url, "thumb")}
                  width={64}
                  height={64}
                  alt={name}
                  className="h-16 w-16 shrink-0 rounded-md bg-slate-100 object-cover"
                />
                <span className="min-w-0 flex-1 text-sm text-slate-700">
                  {index === 0 ? PHOTO_MESSAGES.cover : null}
                </span>
                {index > 0
                  ? control(
                      `${PHOTO_MESSAGES.makeCover}: ${name}`,
                      <Star className="h-4 w-4" aria-hidden="true" />,
                      () => reorder.mutateAsync(moved(ids, index, 0)),
                    )
                  : null}
                {index > 0
                  ? control(
                      `${PHOTO_MESSAGES.moveEarlier}: ${name}`,
                      <ArrowUp className="h-4 w-4" aria-hidden="true" />,
                      () => reorder.mutateAsync(moved(ids, index, index - 1)),
                    )
                  : null}
                {index < count - 1
                  ? control(
                      `${PHOTO_MESSAGES.moveLater}: ${name}`,
                      <ArrowDown className="h-4 w-4" aria-hidden="true" />,
                      () => reorder.mutateAsync(moved(ids, index, index + 1)),
                    )
                  : null}
                {control(
                  `${PHOTO_MESSAGES.remove}: ${name}`,
                  <Trash2 className="h-4 w-4 text-red-700" aria-hidden="true" />,
                  () => remove.mutateAsync(photo.id),
                  PHOTO_MESSAGES.removed,
                )}
              </li>
            );
          })}
        </ol>
      </DialogContent>
    </Dialog>
  );
}
