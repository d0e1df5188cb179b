import { buffer } from "node:stream/consumers";
import { extensionForAudioType } from "../../shared/audio-types";
import { cleanSegments } from "../../shared/transcript";
import type { Transcriber } from "../ai/ai";
import type { AudioService } from "../audio/audio.service";
import type { JobHandler } from "../jobs/worker";
import type { CommentsRepo } from "./comments.repo";

/**
 * Transcribes one spoken comment; failures retry with backoff (the worker logs each), then mark the
 * comment failed with a code.
 */
export function transcribeCommentHandler(deps: {
  comments: CommentsRepo;
  audio: AudioService;
  transcriber: Transcriber;
}): JobHandler {
  return {
    // Once `signal` is aborted (the worker lost its lease) the call stops and nothing is written.
    async run(commentId, _job, signal) {
      const comment = await deps.comments.findById(commentId);
      // Deleted meanwhile, or already done by an earlier attempt: nothing to do.
      if (!comment || comment.status === "saved" || !comment.audio_id) return;
      const audio = await deps.audio.findById(comment.audio_id);
      if (!audio) {
        signal.throwIfAborted();
        await deps.comments.markFailed(commentId, "transcribe.recording_missing");
        return;
      }
      const bytes = await buffer(deps.audio.open(audio));
      const result = await deps.transcriber.transcribe(
        {
          bytes,
          filename: `comment.${extensionForAudioType(audio.content_type)}`,
          contentType: audio.content_type,
        },
        { signal },
      );
      signal.throwIfAborted();
      const text = result.text.trim();
      if (!text) {
        await deps.comments.markFailed(commentId, "transcribe.no_speech");
        return;
      }
      await deps.comments.setTranscript(commentId, text, {
        engine: result.engine ?? null,
        segments: cleanSegments(result.segments ?? [], 0),
      });
    },
    // The worker has logged every failed attempt with its raw error; anyone may read a comment,
    // so it stores only a code.
    async giveUp(commentId) {
      await deps.comments.markFailed(commentId, "transcribe.failed");
    },
  };
}
