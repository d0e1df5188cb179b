import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, memorySchema } from "../../shared/schemas";
import { retranscribeCountSchema, transcriptInfoSchema } from "../../shared/transcript";
import { security } from "../http/api-security";
import { errorResponses } from "../http-errors";
import type { TranscriptsService } from "./transcripts.service";

export interface TranscriptsRoutesOptions {
  transcripts: TranscriptsService;
}

const errors = errorResponses(400, 401, 403, 404, 409);
/** A WebVTT captions file (a memory's or a comment's); visibility can change, so never cached. */
export function sendCaptions(reply: FastifyReply, vtt: string): FastifyReply {
  return reply
    .type("text/vtt; charset=utf-8")
    .header("cache-control", "private, no-cache")
    .send(vtt);
}

/**
 * A memory's timed transcript and its captions, for whoever may hear its audio; transcribing the
 * fallback engine's memories again, and choosing between an edit and the new transcription offered
 * beside it, for their owner.
 */
export const transcriptsRoutes: FastifyPluginAsyncZod<TranscriptsRoutesOptions> = async (
  app,
  { transcripts },
) => {
  app.get(
    "/memories/:id/transcript",
    {
      schema: {
        operationId: "getTranscript",
        security: security.optionalSession,
        summary:
          "How a memory's transcript was made (engine, edited by its owner), its timed segments, and whether a better transcription is available (owner only)",
        params: idParamsSchema,
        response: { 200: transcriptInfoSchema, ...errors },
      },
    },
    async (request) => transcripts.info(request.params.id, request.identity),
  );

  app.get(
    "/memories/:id/captions.vtt",
    {
      schema: {
        operationId: "getMemoryCaptions",
        security: security.optionalSession,
        summary:
          "The memory's captions as WebVTT, one cue per timed segment, for the audio player (same access as the audio)",
        params: idParamsSchema,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) =>
      sendCaptions(reply, await transcripts.captions(request.params.id, request.identity)),
  );

  app.post(
    "/memories/:id/retranscribe",
    {
      schema: {
        operationId: "retranscribeMemory",
        security: security.session,
        summary:
          "Transcribe a memory made by the offline fallback (or before engines were recorded, with Whisper there) again with the better engine now there, then make its title, summary, scores and tags again (owner only). A transcript the owner edited is kept: the new one is offered beside it (see the transcript's `proposal`). Answers the memory in state 'processing' at stage 'transcribe'; poll GET /api/memories/{id}. 409 while processing.",
        params: idParamsSchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => transcripts.retranscribe(request.params.id, request.identity),
  );

  app.post(
    "/memories/:id/proposed-transcript/accept",
    {
      schema: {
        operationId: "acceptProposedTranscript",
        security: security.session,
        summary:
          "Take the new transcription offered beside the transcript you edited: it becomes the transcript with its times and engine (owner only). 409 while processing or with no offer.",
        params: idParamsSchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => transcripts.acceptProposal(request.params.id, request.identity),
  );

  app.post(
    "/memories/:id/proposed-transcript/dismiss",
    {
      schema: {
        operationId: "dismissProposedTranscript",
        security: security.session,
        summary:
          "Keep the transcript you edited and drop the new transcription offered beside it; it is not offered again (owner only). 409 with no offer.",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await transcripts.dismissProposal(request.params.id, request.identity);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/memories/retranscribe",
    {
      schema: {
        operationId: "countRetranscribableMemories",
        security: security.session,
        summary:
          "How many of your memories the offline fallback transcribed (or were transcribed before engines were recorded, with Whisper there) that a better engine, now there, could transcribe again",
        response: { 200: retranscribeCountSchema, ...errors },
      },
    },
    async (request) => ({
      count: await transcripts.countRetranscribable(request.identity),
      speechModelMissing: transcripts.speechModelMissing(),
    }),
  );

  app.post(
    "/memories/retranscribe",
    {
      schema: {
        operationId: "retranscribeAllMemories",
        security: security.session,
        summary:
          "Transcribe all of those again (each through the same pipeline as a new recording); answers how many were queued",
        response: { 200: retranscribeCountSchema, ...errors },
      },
    },
    async (request) => ({ count: await transcripts.retranscribeAll(request.identity) }),
  );
};
