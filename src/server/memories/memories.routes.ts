import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DOWNLOAD_CHECK_HEADER } from "../../shared/constants";
import {
  errorResponseSchema,
  idParamsSchema,
  journalQuerySchema,
  memoryBookQuerySchema,
  memoryOwnerSchema,
  memoryPageSchema,
  memorySchema,
  memoryUpdateBodySchema,
  memoryYearsSchema,
  okResponseSchema,
  pageQuerySchema,
  searchQuerySchema,
  unclaimedMemoriesSchema,
  usernameParamsSchema,
} from "../../shared/schemas";
import { type Config, linkBaseOf } from "../config";
import { security } from "../http/api-security";
import { unauthorized } from "../http-errors";
import { ownJournalId } from "../journals/journals.repo";
import type { JournalsService } from "../journals/journals.service";
import { missingFontWarning } from "../pdf/pdf-writing";
import type { UsersService } from "../users/users.service";
import type { MemoriesService } from "./memories.service";
import type { MemoriesBackup } from "./memories-backup";
import type { MemoryBook } from "./memory-book";

/** Books per owner per hour: each one typesets the whole journal twice. */
export const MEMORY_BOOKS_PER_HOUR = 10;

export interface MemoriesRoutesOptions {
  memories: MemoriesService;
  backup: MemoriesBackup;
  users: UsersService;
  book: MemoryBook;
  journals: Pick<JournalsService, "organizerOf" | "nameOf" | "languageOf">;
  config: Pick<Config, "APP_URL" | "PORT">;
}

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/** Lists, search, one memory, edit, delete, backup, and a public profile's memories. */
export const memoriesRoutes: FastifyPluginAsyncZod<MemoriesRoutesOptions> = async (
  app,
  { memories, backup, users, book, journals, config },
) => {
  app.get(
    "/memories",
    {
      schema: {
        operationId: "listMemories",
        security: security.session,
        summary: "Your memories, newest recorded first, 15 per page with the total",
        querystring: pageQuerySchema,
        response: { 200: memoryPageSchema, ...errors },
      },
    },
    async (request) => memories.listOwn(request.identity, request.query.page),
  );

  app.get(
    "/memories/years",
    {
      schema: {
        operationId: "listMemoryYears",
        security: security.session,
        summary:
          "The years that hold your memories, newest first, with counts and the page holding each year's newest memory",
        response: { 200: memoryYearsSchema, ...errors },
      },
    },
    async (request) => memories.yearsOwn(request.identity),
  );

  app.get(
    "/memories/unclaimed",
    {
      schema: {
        operationId: "listUnclaimedMemories",
        security: security.none,
        summary:
          "What this browser recorded without an account and can still save to one (claim): any state, newest first, only within CLAIM_WINDOW_HOURS; empty for another browser",
        response: { 200: unclaimedMemoriesSchema, ...errors },
      },
    },
    async (request) => memories.listUnclaimed(request.identity),
  );

  app.get(
    "/memories/search",
    {
      schema: {
        operationId: "searchMemories",
        security: security.session,
        summary: "Full-text search of your memories (title, transcript, summary, tags), ranked",
        querystring: searchQuerySchema,
        response: { 200: memoryPageSchema, ...errors },
      },
    },
    async (request) => memories.searchOwn(request.identity, request.query.q, request.query.page),
  );

  app.get(
    "/memories/:id",
    {
      schema: {
        operationId: "getMemory",
        security: security.optionalSession,
        summary: "One memory, when you may see it (404 otherwise)",
        params: idParamsSchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => memories.getVisible(request.params.id, request.identity),
  );

  app.get(
    "/memories/:id/owner",
    {
      schema: {
        operationId: "getMemoryOwner",
        security: security.optionalSession,
        summary:
          "Whose memory it is (username and display name), when you may see it (404 otherwise)",
        params: idParamsSchema,
        response: { 200: memoryOwnerSchema, ...errors },
      },
    },
    async (request) => memories.ownerOf(request.params.id, request.identity),
  );

  app.put(
    "/memories/:id",
    {
      schema: {
        operationId: "updateMemory",
        security: security.session,
        summary:
          "Replace a memory's title, transcript, summary, date and tags, or remove its question (owner only)",
        params: idParamsSchema,
        body: memoryUpdateBodySchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => memories.update(request.params.id, request.identity, request.body),
  );

  app.delete(
    "/memories/:id",
    {
      schema: {
        operationId: "deleteMemory",
        security: security.optionalSession,
        summary:
          "Delete a memory with its comments and audio (owner only; or, before it is claimed, the browser that recorded it without an account)",
        params: idParamsSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      await memories.delete(request.params.id, request.identity);
      return { ok: true as const };
    },
  );

  app.get(
    "/backup-memories",
    {
      schema: {
        operationId: "downloadBackup",
        security: security.session,
        // A streamed application/zip; errors are the usual JSON { message } (401, 503). With the
        // DOWNLOAD_CHECK_HEADER the same checks answer 204 without building the zip.
        summary:
          "A zip of a journal's memories, their comments, audio and photos (memories.json, index.html, audio/, photos/): organizers; the caller's own journal unless `journal` names another",
        querystring: journalQuerySchema,
      },
    },
    async (request, reply) => {
      const organizer = journals.organizerOf(request.identity, request.query.journal);
      const user = await users.getUser(organizer.userId);
      if (!user) throw unauthorized();
      const date = new Date().toISOString().slice(0, 10);
      await backup.checkStorage();
      if (request.headers[DOWNLOAD_CHECK_HEADER]) return reply.code(204).send();
      const language = await journals.languageOf(organizer.journalId);
      const stream = backup.stream({ ...organizer, language });
      stream.on("error", (error) => request.log.error({ err: error }, "backup failed mid-stream"));
      return reply
        .header("content-type", "application/zip")
        .header(
          "content-disposition",
          `attachment; filename="memories-backup-${user.username.replace(/[^A-Za-z0-9._-]/g, "_")}-${date}.zip"`,
        )
        .header("cache-control", "no-store")
        .send(stream);
    },
  );

  app.get(
    "/memory-book",
    {
      schema: {
        operationId: "downloadMemoryBook",
        security: security.session,
        // A streamed application/pdf; errors are the usual JSON { message } (400, 401, 429). With
        // the DOWNLOAD_CHECK_HEADER the same checks answer 204 without building the PDF.
        summary:
          "A printable PDF of a journal's saved memories (optional recorded dates, tag and paper; organizers; the caller's own journal unless `journal` names another), a chapter per storyteller",
        querystring: memoryBookQuerySchema,
      },
      config: {
        rateLimit: {
          max: MEMORY_BOOKS_PER_HOUR,
          timeWindow: "1 hour",
          // The check and the download count apart, so a book costs one of each, not two.
          keyGenerator: (request) =>
            `memory-book:${request.headers[DOWNLOAD_CHECK_HEADER] ? "check:" : ""}${request.identity.userId ?? request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const organizer = journals.organizerOf(request.identity, request.query.journal);
      const user = await users.getUser(organizer.userId);
      if (!user) throw unauthorized();
      // An account's own book carries its name, as before journals; another journal's, its name.
      const name =
        organizer.journalId === ownJournalId(user.id)
          ? user.displayName?.trim() || user.username
          : await journals.nameOf(organizer.journalId);
      const date = new Date().toISOString().slice(0, 10);
      if (request.headers[DOWNLOAD_CHECK_HEADER]) return reply.code(204).send();
      const language = await journals.languageOf(organizer.journalId);
      const missingFont = missingFontWarning(language);
      if (missingFont) request.log.warn(missingFont);
      const stream = await book.stream(
        { journalId: organizer.journalId, organizerId: user.id, name, language },
        request.query,
        linkBaseOf(config, request),
      );
      stream.on("error", (error) =>
        request.log.error({ err: error }, "memory book failed mid-stream"),
      );
      return reply
        .header("content-type", "application/pdf")
        .header(
          "content-disposition",
          `attachment; filename="memory-book-${user.username.replace(/[^A-Za-z0-9._-]/g, "_")}-${date}.pdf"`,
        )
        .header("cache-control", "no-store")
        .send(stream);
    },
  );

  app.get(
    "/users/:username/memories",
    {
      schema: {
        operationId: "listProfileMemories",
        security: security.optionalSession,
        summary: "A public profile's shared memories (404 for missing or private profiles)",
        params: usernameParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: memoryPageSchema, ...errors },
      },
    },
    async (request) =>
      memories.listForProfile(request.params.username, request.identity, request.query.page),
  );

  app.get(
    "/users/:username/memories/years",
    {
      schema: {
        operationId: "listProfileMemoryYears",
        security: security.optionalSession,
        summary: "The years of a profile's shared memories, as /memories/years",
        params: usernameParamsSchema,
        response: { 200: memoryYearsSchema, ...errors },
      },
    },
    async (request) => memories.yearsForProfile(request.params.username, request.identity),
  );

  app.get(
    "/users/:username/memories/search",
    {
      schema: {
        operationId: "searchProfileMemories",
        security: security.optionalSession,
        summary: "Search a public profile's shared memories",
        params: usernameParamsSchema,
        querystring: searchQuerySchema,
        response: { 200: memoryPageSchema, ...errors },
      },
    },
    async (request) =>
      memories.searchForProfile(
        request.params.username,
        request.identity,
        request.query.q,
        request.query.page,
      ),
  );
};
