import { RECORDING_LINK_MESSAGES } from "../../../../shared/journals";
import type { LinkStory } from "../../../../shared/schemas";
import type { Finisher } from "../../../lib/upload-queue";
import { followStages, ProcessingFailedError } from "../../memories/processing/run-processing";
import { fetchStory, recordThroughLink } from "./recording-page";

/** The recording kind the link's page records (app/upload-queue.ts runs this finisher for it). */
export const LINK_RECORDING_KIND = "recording-link";

/** What a link's recording keeps with it in the browser: the link, and the question it answers. */
export interface LinkRecordingMeta {
  token: string;
  question: string | null;
}

function metaOf(meta: unknown): LinkRecordingMeta {
  const { token, question } = (meta ?? {}) as Partial<LinkRecordingMeta>;
  return { token: typeof token === "string" ? token : "", question: question ?? null };
}

/**
 * After the upload of a recording made through a storyteller's link: the server makes the story,
 * and the recorder shows each stage until it is saved. A failed processing is kept on the server
 * for the family to retry: the storyteller is thanked all the same.
 */
export const finishLinkRecording: Finisher = async (upload, report): Promise<LinkStory> => {
  const { token, question } = metaOf(upload.meta);
  const started = await recordThroughLink(token, {
    audioUrl: upload.url,
    recordedAt: upload.recordedAt,
    ...(question ? { question } : {}),
  });
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
