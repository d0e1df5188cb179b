import fastifyMultipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema, uploadResponseSchema } from "../../shared/schemas";
import { ensureVisitor } from "../auth/session.service";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { asMultipartClientError, asUploadClientError } from "../http/multipart-errors";
import { badRequest, errorBody, errorResponses, notFound } from "../http-errors";
import {
  type AttachmentVisibility,
  type AudioRow,
  type AudioService,
  UPLOAD_KEY_PATTERN,
} from "./audio.service";
import { parseRange } from "./http-range";

const HOUR_MS = 60 * 60 * 1000;

const asClientError = (error: unknown) => asMultipartClientError(error, "audio");

/**
 * Uploads are limited per session and IP. A logged-in user counts per account and address;
 * anonymous uploads count per address only, because a visitor cookie costs nothing to mint and
 * so cannot be what the limit keys on.
 */
export function uploadRateKey(request: FastifyRequest): string {
  const { userId } = request.identity;
  return userId ? `upload:user:${userId}:${request.ip}` : `upload:anon:${request.ip}`;
}

/**
 * Answers a recording's bytes, with HTTP Range support, once the caller has decided it may be heard
 * (GET /api/audio/{id}, and a story heard through its storyteller's recording link).
 */
export async function sendAudio(
  request: FastifyRequest,
  reply: FastifyReply,
  audio: Pick<AudioService, "size" | "open">,
  row: AudioRow,
) {
  const size = await audio.size(row);
  if (size === null) throw notFound();

  const etag = `"${row.id}"`;
  reply
    .header("x-content-type-options", "nosniff")
    .header("accept-ranges", "bytes")
    // Visibility can change (a profile made private), so caches must ask again each time.
    .header("cache-control", "private, no-cache")
    .header("etag", etag);
  if (request.headers["if-none-match"] === etag) return reply.code(304).send();

  const range = parseRange(request.headers.range, size);
  if (range === "unsatisfiable") {
    return reply
      .code(416)
      .header("content-range", `bytes */${size}`)
      .send(errorBody("range_not_satisfiable"));
  }
  reply.header("content-type", row.content_type);
  if (range === "none") {
    reply.code(200).header("content-length", size);
  } else {
    reply
      .code(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
      .header("content-length", range.end - range.start + 1);
  }
  if (request.method === "HEAD") return reply.send();
  return reply.send(audio.open(row, range === "none" ? undefined : range));
}

export const audioRoutes: FastifyPluginAsyncZod<{
  config: Pick<Config, "UPLOAD_MAX_BYTES" | "RATE_LIMIT_UPLOAD_PER_HOUR" | "COOKIE_SECURE">;
  audio: AudioService;
  /** Who may hear an attached upload (the visibility of the memory it belongs to). */
  mayHear: AttachmentVisibility;
}> = async (app, { config, audio, mayHear }) => {
  // Registered here (encapsulated): only the upload route parses multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11 },
  });

  app.post(
    "/upload",
    {
      config: {
        rateLimit: {
          max: config.RATE_LIMIT_UPLOAD_PER_HOUR,
          timeWindow: HOUR_MS,
          keyGenerator: uploadRateKey,
        },
      },
      schema: {
        operationId: "uploadRecording",
        security: security.optionalSession,
        summary: "Stores a recording (multipart field `audio`); the content must be audio",
        description:
          "Accepts MP3, WebM, Ogg, WAV and MP4/M4A of at least 1024 bytes, recognised by their bytes and refused (400) when their container cannot be read. Answers the URL to fetch it from. With an `x-upload-key` header, sending the same recording again answers the first upload (200) instead of storing a copy.",
        consumes: ["multipart/form-data"],
        response: {
          200: uploadResponseSchema,
          201: uploadResponseSchema,
          ...errorResponses(400, 413, 429),
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw badRequest("audio.file_required");
      }
      const part = await request.file().catch((error: unknown) => {
        throw asClientError(error);
      });
      if (!part) throw badRequest("audio.file_required");
      if (part.fieldname !== "audio") {
        part.file.resume();
        throw badRequest("audio.file_required");
      }
      const uploadKey = request.headers["x-upload-key"];
      if (
        uploadKey !== undefined &&
        (typeof uploadKey !== "string" || !UPLOAD_KEY_PATTERN.test(uploadKey))
      ) {
        part.file.resume();
        throw badRequest("audio.invalid_upload_key");
      }
      const { userId } = request.identity;
      const owner = userId ? { userId } : { anonHash: ensureVisitor(request, reply, config) };
      const stored = await audio
        .storeUpload({
          source: part.file,
          maxBytes: config.UPLOAD_MAX_BYTES,
          owner,
          wasTruncated: () => part.file.truncated,
          ...(uploadKey ? { uploadKey } : {}),
        })
        .catch((error: unknown) => {
          throw asUploadClientError(error, part.file, "audio");
        });
      return reply.code(stored.repeated ? 200 : 201).send({ url: stored.url, id: stored.id });
    },
  );

  app.route({
    method: ["GET", "HEAD"],
    url: "/audio/:id",
    // One handler for both, so HEAD never opens the file (Fastify's automatic HEAD would read it).
    exposeHeadRoute: false,
    schema: {
      operationId: "getAudio",
      security: security.optionalSession,
      summary: "The bytes of a recording, with HTTP Range support; 404 when missing or not visible",
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const row = await audio.findVisible(request.params.id, request.identity, mayHear);
      if (!row) throw notFound();
      return sendAudio(request, reply, audio, row);
    },
  });
};
