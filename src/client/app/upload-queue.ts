import { finishComment } from "../features/comments/comment-finisher";
import { finishMemory } from "../features/memories/processing/memory-finisher";
import { uploadAudio } from "../features/recorder/api/upload-audio";
import {
  finishLinkRecording,
  LINK_RECORDING_KIND,
} from "../features/recording-link/api/link-finisher";
import { UploadQueue, type UploadQueueOptions } from "../lib/upload-queue";

/**
 * The app's one upload queue: recordings are kept in IndexedDB, uploaded, then finished by their
 * kind (a memory is processed by the server; a spoken comment is created; a story recorded through
 * a storyteller's link is made through that link). Tests pass a memory
 * store, a fake clock or their own finishers.
 */
export function createUploadQueue(options: Partial<UploadQueueOptions> = {}): UploadQueue {
  return new UploadQueue({
    upload: uploadAudio,
    finishers: {
      memory: finishMemory,
      comment: finishComment,
      [LINK_RECORDING_KIND]: finishLinkRecording,
    },
    ...options,
  });
}
