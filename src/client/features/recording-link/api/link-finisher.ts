import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import { PHOTO_MESSAGES } from "../../../../shared/photos";
import type { LinkStory } from "../../../../shared/schemas";
import { toastError } from "../../../components/ui/use-toast";
import type { Finisher } from "../../../lib/upload-queue";
import { followStages, ProcessingFailedError } from "../../memories/processing/run-processing";
import { addPhotoThroughLink, fetchStory, recordThroughLink } from "./recording-page";

/** The recording kind the link's page records (app/upload-queue.ts runs this finisher for it). */
export const LINK_RECORDING_KIND = "recording-link";

/**
 * What a link's recording keeps with it in the browser: the link, the question it answers, and
 * the photo it was started from ("Start from a photo").
 */
export interface LinkRecordingMeta {
  token: string;
  question: string | null;
  photo?: Blob;
}

function metaOf(meta: unknown): LinkRecordingMeta {
  const { token, question, photo } = (meta ?? {}) as Partial<LinkRecordingMeta>;
  return {
    token: typeof token === "string" ? token : "",
    question: question ?? null,
    ...(photo instanceof Blob ? { photo } : {}),
  };
}

/**
 * Adds the story's photo to its new story through the link. A failure says so and is not retried:
 * the recording is safe, and the family can add the photo on the story's page.
 */
async function attachPhoto(token: string, id: string, photo: Blob | undefined): Promise<void> {
  if (!photo) return;
  try {
    await addPhotoThroughLink(token, id, photo);
  } catch (error) {
    toastError(PHOTO_MESSAGES.addFailed, error);
  }
}

/**
 * After the upload of a recording made through a storyteller's link: the server makes the story,
 * and the recorder shows each stage until it is saved. A failed processing is kept on the server
 * for the family to retry: the storyteller is thanked all the same.
 */
export const finishLinkRecording: Finisher = async (upload, report): Promise<LinkStory> => {
  const { token, question, photo } = metaOf(upload.meta);
  const started = await recordThroughLink(token, {
    audioUrl: upload.url,
    recordedAt: upload.recordedAt,
    ...(question ? { question } : {}),
  });
  // As soon as the story exists, so its summary knows it is about a photo. A story that has
  // photos already (this recording sent again) is not given the photo twice.
  if (started.photoCount === 0) await attachPhoto(token, started.id, photo);
  try {
    return await followStages(started, (id) => fetchStory(token, id), report);
  } catch (error) {
    if (error instanceof ProcessingFailedError) {
      void report(RECORDING_LINK_MESSAGES.savedUntitled);
      return error.memory as LinkStory;
    }
    throw error;
  }
};
