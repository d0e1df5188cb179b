import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Transcriber } from "../ai/ai";
import type { AudioService } from "../audio/audio.service";
import type { Job } from "../jobs/jobs.repo";
import { transcribeCommentHandler } from "./comments.jobs";
import type { CommentsRepo } from "./comments.repo";

/** The handler over in-memory stand-ins for its repository and the audio service. */
function handlerWith(transcriber: Transcriber) {
  const writes: string[] = [];
  const comments = {
    findById: async (id: string) => ({ id, status: "processing", audio_id: "audio-1" }),
    setTranscript: async (_id: string, text: string) => {
      writes.push(`transcript: ${text}`);
    },
    markFailed: async (_id: string, error: string) => {
      writes.push(`failed: ${error}`);
    },
  } as unknown as CommentsRepo;
  const audio = {
    findById: async () => ({ id: "audio-1", content_type: "audio/mpeg" }),
    open: () => Readable.from([Buffer.from("ID3 audio")]),
  } as unknown as AudioService;
  return { writes, handler: transcribeCommentHandler({ comments, audio, transcriber }) };
}

describe("transcribeCommentHandler", () => {
  it("passes the job's signal to the transcriber and writes nothing once it is aborted", async () => {
    const controller = new AbortController();
    let received: AbortSignal | undefined;
    // A provider whose answer arrives anyway, just after the worker lost its lease.
    const { writes, handler } = handlerWith({
      transcribe: async (_audio, options) => {
        received = options?.signal;
        controller.abort(new Error("lease lost"));
        return { text: "Too late.", duration: 1 };
      },
    });
    await expect(handler.run("comment-1", {} as Job, controller.signal)).rejects.toThrow(
      "lease lost",
    );
    expect(received).toBe(controller.signal);
    expect(writes).toEqual([]);
  });

  it("stores the transcript while the signal is not aborted", async () => {
    const { writes, handler } = handlerWith({
      transcribe: async () => ({ text: " Well done! ", duration: 1 }),
    });
    await handler.run("comment-1", {} as Job, new AbortController().signal);
    expect(writes).toEqual(["transcript: Well done!"]);
  });
});
