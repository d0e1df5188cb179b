import { ImagePlus, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { PHOTO_ACCEPT, PHOTO_MESSAGES } from "../../../../shared/photos";
import { Button } from "../../../components/ui/button";
import { useUser } from "../../auth/api/get-user";
import { onMemorySaved } from "../../memories/processing/memory-saved-events";

/**
 * "Start from a photo" on the recorder card: the chosen photo is shown large while the story is
 * told, and the recorder keeps it with the recording (see the memory finisher), so the new memory
 * carries it. For logged-in people, or on a storyteller's recording link (`throughLink`), whose
 * stories take their photo through the link.
 */
export function StartFromPhoto({
  photo,
  onPhoto,
  throughLink = false,
}: {
  photo: Blob | null;
  onPhoto: (photo: Blob | null) => void;
  throughLink?: boolean;
}) {
  const { data: user } = useUser();
  const input = useRef<HTMLInputElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!photo) return setSrc(null);
    const url = URL.createObjectURL(photo);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);
  // The memory told about it carries it now: the card is ready for the next story.
  useEffect(() => onMemorySaved(() => onPhoto(null)), [onPhoto]);
  if (!user && !throughLink) return null;
  return (
    <div className="mb-4 flex flex-col items-center gap-2">
      {src ? (
        <>
          <img
            src={src}
            alt={PHOTO_MESSAGES.storyPhoto}
            className="max-h-[50vh] w-auto max-w-full rounded-lg object-contain"
          />
          <Button variant="ghost" size="sm" onClick={() => onPhoto(null)}>
            <X className="h-4 w-4" aria-hidden="true" />
            {PHOTO_MESSAGES.storyPhotoRemove}
          </Button>
        </>
      ) : (
        <Button variant="outline" size="sm" onClick={() => input.current?.click()}>
          <ImagePlus className="h-4 w-4" aria-hidden="true" />
          {PHOTO_MESSAGES.startFromPhoto}
        </Button>
      )}
      <input
        ref={input}
        type="file"
        accept={PHOTO_ACCEPT}
        hidden
        data-testid="story-photo-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = "";
          if (file) onPhoto(file);
        }}
      />
    </div>
  );
}
