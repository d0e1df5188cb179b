import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  commentListSchema,
  commentSchema,
  createCommentBodySchema,
  idParamsSchema,
} from "../../shared/schemas";
import { security } from "../http/api-security";
import { errorResponses } from "../http-errors";
import { sendCaptions } from "../memories/transcripts.routes";
import type { CommentsService } from "./comments.service";

const commentParamsSchema = idParamsSchema.extend({ commentId: z.string().min(1).max(100) });

const errors = errorResponses(400, 401, 403, 404, 429);

export const commentsRoutes: FastifyPluginAsyncZod<{
  comments: CommentsService;
  perMemoryPerHour: number;
}> = async (app, { comments, perMemoryPerHour }) => {
  app.get(
    "/memories/:id/comments",
    {
      schema: {
        operationId: "listComments",
        security: security.optionalSession,
        summary: "A memory's spoken comments, newest first",
        params: idParamsSchema,
        response: { 200: commentListSchema, ...errors },
      },
    },
    async (request) => comments.list(request.params.id, request.identity),
  );

  app.post(
    "/memories/:id/comments",
    {
      schema: {
        operationId: "addComment",
        security: security.optionalSession,
        summary: "Adds a spoken comment (upload the audio first)",
        params: idParamsSchema,
        body: createCommentBodySchema,
        response: { 201: commentSchema, ...errors },
      },
      config: {
        // Anonymous visitors may comment: limit per IP and memory so no one floods a memory.
        rateLimit: {
          max: perMemoryPerHour,
          timeWindow: "1 hour",
          keyGenerator: (request) =>
            `comment:${request.ip}:${(request.params as { id?: string }).id ?? ""}`,
        },
      },
    },
    async (request, reply) => {
      const comment = await comments.create(request.params.id, request.identity, request.body);
      return reply.code(201).send(comment);
    },
  );

  app.get(
    "/memories/:id/comments/:commentId/captions.vtt",
    {
      schema: {
        operationId: "getCommentCaptions",
        security: security.optionalSession,
        summary:
          "A spoken comment's captions as WebVTT, one cue per timed segment, for its audio player (same access as its audio)",
        params: commentParamsSchema,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { id, commentId } = request.params;
      return sendCaptions(reply, await comments.captions(id, commentId, request.identity));
    },
  );

  app.delete(
    "/memories/:id/comments/:commentId",
    {
      schema: {
        operationId: "removeComment",
        security: security.session,
        summary: "Removes a comment and its audio (the memory's owner only)",
        params: commentParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await comments.remove(request.params.id, request.params.commentId, request.identity);
      return reply.code(204).send(null);
    },
  );
};
