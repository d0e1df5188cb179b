import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { journalQuerySchema, restoreResultSchema } from "../../shared/schemas";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { asMultipartClientError, asUploadClientError } from "../http/multipart-errors";
import { badRequest, errorResponses } from "../http-errors";
import type { JournalsService } from "../journals/journals.service";
import type { MemoriesRestore } from "./memories-restore";

const HOUR_MS = 60 * 60 * 1000;

const asClientError = (error: unknown) => asMultipartClientError(error, "backup");

/** POST /api/restore: a backup zip (multipart field `backup`) into one of the caller's journals. */
export const restoreRoutes: FastifyPluginAsyncZod<{
  restore: MemoriesRestore;
  journals: Pick<JournalsService, "organizerOf">;
  config: Pick<Config, "RESTORE_MAX_BYTES">;
}> = async (app, { restore, journals, config }) => {
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
        summary:
          "Restores a backup zip (from GET /api/backup-memories) into a journal: organizers; the caller's own unless `journal` names another",
        description:
          "Multipart field `backup`. Everything is checked before anything is imported; a hostile or damaged zip answers 400 and changes nothing. Importing the same backup again skips what is already there.",
        consumes: ["multipart/form-data"],
        querystring: journalQuerySchema,
        response: {
          200: restoreResultSchema,
          ...errorResponses(400, 401, 403, 404, 413, 429),
        },
      },
    },
    async (request) => {
      const into = journals.organizerOf(request.identity, request.query.journal);
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
        .restoreUpload(into, part.file, () => part.file.truncated)
        .catch((error: unknown) => {
          throw asUploadClientError(error, part.file, "backup");
        });
    },
  );
};
