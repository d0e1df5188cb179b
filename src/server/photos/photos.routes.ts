import type { Readable } from "node:stream";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { PHOTO_FIELD } from "../../shared/photos";
import {
  errorResponseSchema,
  idParamsSchema,
  okResponseSchema,
  photoListSchema,
  photoOrderBodySchema,
  photoParamsSchema,
  photoQuerySchema,
  photoSchema,
} from "../../shared/schemas";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { asMultipartClientError, asUploadClientError } from "../http/multipart-errors";
import { badRequest, errorResponses, notFound, tooLarge } from "../http-errors";
import { PHOTO_CONTENT_TYPE } from "./photo-image";
import type { PhotosService } from "./photos.service";

const HOUR_MS = 60 * 60 * 1000;

const errors = errorResponses(400, 401, 403, 404);

/**
 * The whole photo, or 413 when it is over `maxBytes`. The parser flags a file cut at its limit
 * (`truncated`) only when the next chunk arrives, which can be after the last chunk it passed on:
 * so the flag is read once the file has ended, not only while chunks come.
 */
export async function readPhoto(
  file: Readable & { truncated: boolean },
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of file) {
    length += (chunk as Buffer).length;
    // Leaving the loop stops reading the upload.
    if (length > maxBytes || file.truncated) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  if (file.truncated) throw tooLarge();
  return Buffer.concat(chunks, length);
}

/**
 * The photo of a multipart upload (its `photo` field), with the upload's own errors: 400 without
 * it, 413 over `maxBytes`. Shared by a memory's photos and a recording link's.
 */
export async function readPhotoUpload(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest("photo.required");
  const part = await request.file().catch((error: unknown) => {
    throw asMultipartClientError(error, PHOTO_FIELD);
  });
  if (!part || part.fieldname !== PHOTO_FIELD) {
    part?.file.resume();
    throw badRequest("photo.required");
  }
  return readPhoto(part.file, maxBytes).catch((error: unknown) => {
    throw asUploadClientError(error, part.file, PHOTO_FIELD);
  });
}

/** Adding, ordering, removing and serving a memory's photos (ADR 0043). */
export const photosRoutes: FastifyPluginAsyncZod<{
  config: Pick<Config, "PHOTO_MAX_BYTES" | "RATE_LIMIT_PHOTOS_PER_HOUR">;
  photos: PhotosService;
}> = async (app, { config, photos }) => {
  // Encapsulated: only the photo upload route here parses multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.PHOTO_MAX_BYTES, files: 1, fields: 10, parts: 11 },
  });

  app.post(
    "/memories/:id/photos",
    {
      config: {
        rateLimit: {
          max: config.RATE_LIMIT_PHOTOS_PER_HOUR,
          timeWindow: HOUR_MS,
          keyGenerator: (request) => `photo:${request.identity.userId ?? "anon"}:${request.ip}`,
        },
      },
      schema: {
        operationId: "addPhoto",
        security: security.session,
        summary: "Adds a photo to your memory (multipart field `photo`; up to 10 per memory)",
        description:
          "Accepts JPEG, PNG, WebP and AVIF up to PHOTO_MAX_BYTES, recognised by their bytes. The image is decoded and stored again by the server as JPEG in three sizes, orientation applied and every metadata block (EXIF with GPS, XMP) left out.",
        consumes: ["multipart/form-data"],
        params: idParamsSchema,
        response: {
          201: photoSchema,
          413: errorResponseSchema,
          429: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const bytes = await readPhotoUpload(request, config.PHOTO_MAX_BYTES);
      const photo = await photos.add(request.params.id, request.identity, bytes);
      return reply.code(201).send(photo);
    },
  );

  app.put(
    "/memories/:id/photos",
    {
      schema: {
        operationId: "reorderPhotos",
        security: security.session,
        summary: "Orders your memory's photos (every id once; the first is the cover)",
        params: idParamsSchema,
        body: photoOrderBodySchema,
        response: { 200: photoListSchema, ...errors },
      },
    },
    async (request) => ({
      photos: await photos.reorder(request.params.id, request.identity, request.body.ids),
    }),
  );

  app.delete(
    "/memories/:id/photos/:photoId",
    {
      schema: {
        operationId: "removePhoto",
        security: security.session,
        summary: "Removes a photo from your memory, with its stored files",
        params: photoParamsSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      await photos.remove(request.params.id, request.identity, request.params.photoId);
      return { ok: true as const };
    },
  );

  app.route({
    method: ["GET", "HEAD"],
    url: "/photos/:id",
    exposeHeadRoute: false,
    schema: {
      operationId: "getPhoto",
      security: security.optionalSession,
      summary: "A photo as JPEG (`size` thumb, medium or full); 404 when missing or not visible",
      params: idParamsSchema,
      querystring: photoQuerySchema,
    },
    handler: async (request, reply) => {
      const found = await photos.findVisible(
        request.params.id,
        request.query.size,
        request.identity,
      );
      if (!found) throw notFound();
      const size = await photos.size(found.key);
      if (size === null) throw notFound();
      const etag = `"${found.key}"`;
      reply
        .header("x-content-type-options", "nosniff")
        // Visibility can change (a profile made private), so caches must ask again each time.
        .header("cache-control", "private, no-cache")
        .header("etag", etag);
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
      reply.code(200).header("content-type", PHOTO_CONTENT_TYPE).header("content-length", size);
      if (request.method === "HEAD") return reply.send();
      return reply.send(photos.open(found.key));
    },
  });
};
