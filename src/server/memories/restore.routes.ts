import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { restoreResultSchema } from "../../shared/schemas";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { asMultipartClientError, asUploadClientError } from "../http/multipart-errors";
import { badRequest, errorResponses, unauthorized } from "../http-errors";
import type { MemoriesRestore } from "./memories-restore";

const HOUR_MS = 60 * 60 * 1000;

const asClientError = (error: unknown) => asMultipartClientError(error, "backup");

/** POST /api/restore: a backup zip (multipart field `backup`) into the caller's account. */
export const restoreRoutes: FastifyPluginAsyncZod<{
  restore: MemoriesRestore;
  config: Pick<Config, "RESTORE_MAX_BYTES">;
}> = async (app, { restore, config }) => {
  // Its own multipart limits: a backup may be far larger than one recording.
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.RESTORE_MAX_BYTES, files: 1, fields: 5, parts: 6 },
  });

  app.post(
    "/restore",
    {
      config: {
        rateLimit: {
          max: 10,
          timeWindow: HOUR_MS,
          keyGenerator: (request) => `restore:${request.identity.userId ?? request.ip}`,
        },
      },
      schema: {
        operationId: "restoreBackup",
        security: security.session,
        summary: "Restores a backup zip (from GET /api/backup-memories) into your account",
        description:
          "Multipart field `backup`. Everything is checked before anything is imported; a hostile or damaged zip answers 400 and changes nothing. Importing the same backup again skips what is already there.",
        consumes: ["multipart/form-data"],
        response: {
          200: restoreResultSchema,
          ...errorResponses(400, 401, 413, 429),
        },
      },
    },
    async (request) => {
      const userId = request.identity.userId;
      if (!userId) throw unauthorized();
      if (!request.isMultipart()) {
        throw badRequest("backup.file_required");
      }
      const part = await request.file().catch((error: unknown) => {
        throw asClientError(error);
      });
      if (!part) throw badRequest("backup.file_required");
      if (part.fieldname !== "backup") {
        part.file.resume();
        throw badRequest("backup.file_required");
      }
      return restore
        .restoreUpload(userId, part.file, () => part.file.truncated)
        .catch((error: unknown) => {
          throw asUploadClientError(error, part.file, "backup");
        });
    },
  );
};
