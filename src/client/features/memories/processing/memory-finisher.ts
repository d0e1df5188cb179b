import { failedSaveMemoryDescription, isErrorCode, MESSAGES } from "../../../../shared/messages";
import { PHOTO_MESSAGES } from "../../../../shared/photos";
import { toast, toastError } from "../../../components/ui/use-toast";
import { ApiError, errorMessage } from "../../../lib/api-client";
import type { Finisher } from "../../../lib/upload-queue";
import { addPhoto } from "../../photos/api/add-photo";
import { announceMemoryFailed, announceMemorySaved } from "./memory-saved-events";
import { ProcessingFailedError, runMemoryProcessing } from "./run-processing";

/** The question the home page's recorder passed along (kept with the recording in the browser). */
function questionOf(meta: unknown): string | undefined {
  const question = (meta as { question?: unknown } | null)?.question;
  return typeof question === "string" && question ? question : undefined;
}

/** The journal the story was recorded in (the one open then), kept with the recording. */
function journalIdOf(meta: unknown): string | undefined {
  const journalId = (meta as { journalId?: unknown } | null)?.journalId;
  return typeof journalId === "string" && journalId ? journalId : undefined;
}

/** The photo the story was told about ("Start from a photo"), kept with the recording. */
function photoOf(meta: unknown): Blob | undefined {
  const photo = (meta as { photo?: unknown } | null)?.photo;
  return photo instanceof Blob ? photo : undefined;
}

/**
 * Adds the story's photo to its new memory. A failure says so and is not retried: the recording is
 * safe, and sending the photo again could add it twice (it can be added on the memory's page).
 */
async function attachPhoto(memoryId: string, meta: unknown): Promise<void> {
  const photo = photoOf(meta);
  if (!photo) return;
  try {
    await addPhoto(memoryId, photo);
  } catch (error) {
    toastError(PHOTO_MESSAGES.addFailed, error);
  }
}

/**
 * What happens to a recorded memory after its upload: the server processes it while the recorder
 * shows each stage's notice; then the app celebrates (see MemorySavedEffects). The app's upload
 * queue runs it for recordings of kind 'memory' (app.tsx), kept from an earlier visit too.
 */
export const finishMemory: Finisher = async (upload, report) => {
  try {
    const memory = await runMemoryProcessing(
      { ...upload, question: questionOf(upload.meta), journalId: journalIdOf(upload.meta) },
      report,
      {
        // As soon as the memory exists, so its summary knows it is about a photo. A memory that
        // has photos already (this recording sent again) is not given the photo twice.
        onStarted: (started) =>
          started.photos.length === 0 ? attachPhoto(started.id, upload.meta) : Promise.resolve(),
      },
    );
    announceMemorySaved(memory);
    return memory;
  } catch (error) {
    if (error instanceof ProcessingFailedError) {
      toast({
        title: MESSAGES.processingFailed,
        description: error.message,
        variant: "destructive",
      });
      // The server keeps the recording and the failed memory (the owner retries it from the
      // list): nothing is left for the browser to keep.
      announceMemoryFailed(error.memory);
      return error.memory;
    }
    toast({
      title: MESSAGES.failedSaveMemory,
      // The server's refusal by its code; anything else (offline, an unreadable answer) in words
      // that already say what to do.
      description:
        error instanceof ApiError
          ? failedSaveMemoryDescription(isErrorCode(error.code) ? error.code : "internal_error")
          : errorMessage(error),
      variant: "destructive",
    });
    throw error;
  }
};
