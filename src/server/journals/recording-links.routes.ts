import fastifyMultipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { recordingCardFilename } from "../../shared/journals";
import {
  createdRecordingLinkSchema,
  errorResponseSchema,
  journalParamsSchema,
  linkLanguageBodySchema,
  linkReplyListSchema,
  linkReplyParamsSchema,
  linkStorySchema,
  memberParamsSchema,
  okResponseSchema,
  photoSchema,
  questionMailChoiceSchema,
  questionMailSettingsSchema,
  recordingPageQuerySchema,
  recordingPageSchema,
  recordingStoryParamsSchema,
  recordingTokenParamsSchema,
  recordThroughLinkBodySchema,
} from "../../shared/schemas";
import { sendAudio } from "../audio/audio.routes";
import type { AudioService } from "../audio/audio.service";
import { ensureVisitor } from "../auth/session.service";
import { type Config, linkBaseOf } from "../config";
import { security } from "../http/api-security";
import { acceptOneClickForm } from "../http/one-click-form";
import { errorResponses } from "../http-errors";
import { hashToken } from "../ids";
import { dailyProcessingLimit } from "../memories/memory-processing.routes";
import { missingFontWarning } from "../pdf/pdf-writing";
import { readPhotoUpload } from "../photos/photos.routes";
import type { QuestionMailService } from "./question-mail.service";
import type { RecordingLinksService } from "./recording-links.service";

const errors = errorResponses(400, 401, 403, 404, 409, 429);
const HOUR_MS = 60 * 60 * 1000;

/**
 * A storyteller's personal recording link (ADR 0060): organizers make, print and stop it under
 * /api/journals; whoever holds it records and listens under /api/record/{token}, and nowhere else.
 */
export const recordingLinksRoutes: FastifyPluginAsyncZod<{
  links: RecordingLinksService;
  questionMail: QuestionMailService;
  audio: Pick<AudioService, "size" | "open">;
  config: Pick<
    Config,
    | "APP_URL"
    | "PORT"
    | "COOKIE_SECURE"
    | "RATE_LIMIT_SHARE_LINKS_PER_HOUR"
    | "RATE_LIMIT_SHARE_OPEN_PER_MINUTE"
    | "RATE_LIMIT_PROCESS_PER_HOUR"
    | "RATE_LIMIT_PROCESS_PER_DAY_PER_IP"
    | "PHOTO_MAX_BYTES"
    | "RATE_LIMIT_PHOTOS_PER_HOUR"
  >;
}> = async (app, { links, questionMail, audio, config }) => {
  // Making links (and cards) is bounded per account, like share links.
  const makeLimit = {
    max: config.RATE_LIMIT_SHARE_LINKS_PER_HOUR,
    timeWindow: "1 hour",
    keyGenerator: (request: FastifyRequest) =>
      `recording-link:${request.identity.userId ?? request.ip}`,
  };

  app.post(
    "/journals/:id/members/:memberId/recording-link",
    {
      config: { rateLimit: makeLimit },
      schema: {
        operationId: "makeRecordingLink",
        security: security.session,
        summary:
          "Makes a storyteller's personal recording link (organizers); the one before stops at once",
        description:
          "Only the token's hash is kept: `url` is shown this once. The link opens a recorder that saves memories in this journal as told by this member, and plays back their own stories; nothing else.",
        params: memberParamsSchema,
        response: { 201: createdRecordingLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { id, memberId } = request.params;
      const link = await links.make(request.identity, id, memberId, linkBaseOf(config, request));
      return reply.code(201).header("cache-control", "no-store").send({ url: link.url });
    },
  );

  app.delete(
    "/journals/:id/members/:memberId/recording-link",
    {
      schema: {
        operationId: "stopRecordingLink",
        security: security.session,
        summary: "Stops a storyteller's recording link at once (organizers)",
        params: memberParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await links.stop(request.identity, request.params.id, request.params.memberId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/journals/:id/question-mail",
    {
      schema: {
        operationId: "getQuestionMail",
        security: security.session,
        summary:
          "The day, hour and time zone the journal mails its storytellers the weekly question (organizers)",
        params: journalParamsSchema,
        response: { 200: questionMailSettingsSchema, ...errors },
      },
    },
    async (request) => questionMail.settings(request.identity, request.params.id),
  );

  app.put(
    "/journals/:id/question-mail",
    {
      schema: {
        operationId: "saveQuestionMail",
        security: security.session,
        summary:
          "Sets the day, hour and time zone of the weekly question mail to the journal's storytellers, or turns it off (organizers)",
        description:
          "Each storyteller with an address and a recording link gets the question their link asks, at that hour in their own time zone when their account saved reminders, else in `timeZone`.",
        params: journalParamsSchema,
        body: questionMailSettingsSchema,
        response: { 200: questionMailSettingsSchema, ...errors },
      },
    },
    async (request) =>
      questionMail.save(
        request.identity,
        request.params.id,
        request.body,
        linkBaseOf(config, request),
      ),
  );

  app.get(
    "/journals/:id/members/:memberId/recording-link",
    {
      schema: {
        operationId: "getRecordingLink",
        security: security.session,
        summary: "A storyteller's current recording link, to show or copy again (organizers)",
        description:
          "Read back from the copy sealed with a server secret. 404 `recording_link.none` without a link; 409 `recording_link.make_new` for a link made before links were sealed (make a new one).",
        params: memberParamsSchema,
        response: { 200: createdRecordingLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { id, memberId } = request.params;
      const link = await links.current(request.identity, id, memberId, linkBaseOf(config, request));
      return reply.header("cache-control", "no-store").send({ url: link.url });
    },
  );

  app.get(
    "/journals/:id/members/:memberId/card.pdf",
    {
      // Each card is a PDF drawn afresh: bounded per account as making links is.
      config: {
        rateLimit: {
          ...makeLimit,
          keyGenerator: (request: FastifyRequest) =>
            `recording-card:${request.identity.userId ?? request.ip}`,
        },
      },
      schema: {
        operationId: "printRecordingCard",
        security: security.session,
        // An application/pdf on success; errors are the usual JSON.
        summary:
          "A one-page PDF for the fridge with the storyteller's name and their current recording link as a QR code (organizers)",
        description:
          "Prints the link the storyteller has now, as often as wanted; it never makes a new one. 404 `recording_link.none` without a link; 409 `recording_link.make_new` for a link made before links were sealed; 429 `too_many_requests` past RATE_LIMIT_SHARE_LINKS_PER_HOUR cards an hour per account.",
        params: memberParamsSchema,
      },
    },
    async (request, reply) => {
      const { id, memberId } = request.params;
      const card = await links.card(request.identity, id, memberId, linkBaseOf(config, request));
      const missingFont = missingFontWarning(card.language);
      if (missingFont) request.log.warn(missingFont);
      return reply
        .header("content-type", "application/pdf")
        .header(
          "content-disposition",
          `attachment; filename="${recordingCardFilename(card.name).replace(/[^A-Za-z0-9._-]/g, "_")}"`,
        )
        .header("cache-control", "no-store")
        .send(card.pdf);
    },
  );

  app.get(
    "/record/:token",
    {
      config: {
        // Opened from a card or a mail, not polled: bounded per address like share links.
        rateLimit: {
          max: config.RATE_LIMIT_SHARE_OPEN_PER_MINUTE,
          timeWindow: "1 minute",
          keyGenerator: (request: FastifyRequest) => `record-open:${request.ip}`,
        },
      },
      schema: {
        operationId: "getRecordingPage",
        security: security.none,
        summary:
          "A recording link's page: the journal's name, the storyteller's name, this week's question and a page of their own stories",
        description:
          "`q`, the question the weekly mail's button opened it with, is asked when the product or the family asks it; otherwise the oldest family question waiting, else the week's.",
        params: recordingTokenParamsSchema,
        querystring: recordingPageQuerySchema,
        response: { 200: recordingPageSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return links.page(request.params.token, request.query.page, request.query.q);
    },
  );

  acceptOneClickForm(app);
  // Stopping mails is cheap and harmless, but anonymous: bounded per address.
  const choiceLimit = {
    max: config.RATE_LIMIT_SHARE_OPEN_PER_MINUTE,
    timeWindow: "1 minute",
    keyGenerator: (request: FastifyRequest) => `record-mail:${request.ip}`,
  };

  app.post(
    "/record/:token/unsubscribe",
    {
      config: { rateLimit: choiceLimit },
      schema: {
        operationId: "unsubscribeFromQuestionMail",
        security: security.none,
        summary:
          "One-click unsubscribe from the weekly question mail (RFC 8058), through the storyteller's recording link",
        params: recordingTokenParamsSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      await links.chooseMail(request.params.token, true);
      return { ok: true as const };
    },
  );

  app.put(
    "/record/:token/question-mail",
    {
      config: { rateLimit: choiceLimit },
      schema: {
        operationId: "chooseQuestionMail",
        security: security.none,
        summary:
          "The storyteller stops (`stopped: true`) or asks again for the weekly question mail from their link's page",
        params: recordingTokenParamsSchema,
        body: questionMailChoiceSchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      await links.chooseMail(request.params.token, request.body.stopped);
      return { ok: true as const };
    },
  );

  app.put(
    "/record/:token/language",
    {
      config: { rateLimit: choiceLimit },
      schema: {
        operationId: "chooseRecordingLinkLanguage",
        security: security.none,
        summary:
          "The storyteller chooses the language their link's page speaks (and their card prints in), through their own link",
        description:
          "Until they choose, the page speaks the journal's language. The page reloads in the new language.",
        params: recordingTokenParamsSchema,
        body: linkLanguageBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      await links.chooseLanguage(request.params.token, request.body.language);
      return { ok: true as const };
    },
  );

  // Processing costs money: limited per link and address, and per address per day with the same
  // budget as POST /api/memories/process.
  const limitPerIpPerDay = dailyProcessingLimit(app, config);

  app.post(
    "/record/:token/memories",
    {
      config: {
        rateLimit: {
          max: config.RATE_LIMIT_PROCESS_PER_HOUR,
          timeWindow: HOUR_MS,
          keyGenerator: (request: FastifyRequest) => {
            const { token } = request.params as { token?: string };
            return `record:${request.ip}:${hashToken(token ?? "")}`;
          },
        },
      },
      preHandler: limitPerIpPerDay,
      schema: {
        operationId: "recordThroughLink",
        security: security.none,
        summary:
          "Makes a memory of a recording this browser uploaded (POST /api/upload), told by the link's storyteller in their journal",
        description:
          "Answers the story (201) in state 'processing'; poll GET /api/record/{token}/memories/{id}. Sent again for the same recording, answers that story (200). `question` is kept when it is one of the built-in questions.",
        params: recordingTokenParamsSchema,
        body: recordThroughLinkBodySchema,
        response: { 200: linkStorySchema, 201: linkStorySchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!request.identity.userId) ensureVisitor(request, reply, config);
      const { story, created } = await links.record(
        request.identity,
        request.params.token,
        request.body,
      );
      return reply.code(created ? 201 : 200).send(story);
    },
  );

  app.get(
    "/record/:token/memories/:id",
    {
      schema: {
        operationId: "getStoryThroughLink",
        security: security.none,
        summary:
          "One of the link's storyteller's own stories: its state while processing, then its title",
        params: recordingStoryParamsSchema,
        response: { 200: linkStorySchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return links.story(request.params.token, request.params.id);
    },
  );

  app.route({
    method: ["GET", "HEAD"],
    url: "/record/:token/memories/:id/audio",
    exposeHeadRoute: false,
    schema: {
      operationId: "getStoryAudioThroughLink",
      security: security.none,
      summary:
        "The recording of one of the link's storyteller's own stories, with HTTP Range support",
      params: recordingStoryParamsSchema,
    },
    handler: async (request, reply) => {
      const row = await links.storyAudio(request.params.token, request.params.id);
      return sendAudio(request, reply, audio, row);
    },
  });

  // ---- Replies to the storyteller's stories, played on their page (ADR 0063) ----------------

  app.get(
    "/record/:token/memories/:id/replies",
    {
      schema: {
        operationId: "listRepliesThroughLink",
        security: security.none,
        summary:
          "The replies to one of the link's storyteller's own stories, newest first, their audio under the link's path",
        params: recordingStoryParamsSchema,
        response: { 200: linkReplyListSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return links.replies(request.params.token, request.params.id);
    },
  );

  app.post(
    "/record/:token/memories/:id/replies/seen",
    {
      schema: {
        operationId: "markRepliesSeenThroughLink",
        security: security.none,
        summary: "The link's storyteller opened a story's replies: none of them is new any more",
        params: recordingStoryParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await links.repliesSeen(request.params.token, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.route({
    method: ["GET", "HEAD"],
    url: "/record/:token/memories/:id/replies/:replyId/audio",
    exposeHeadRoute: false,
    schema: {
      operationId: "getReplyAudioThroughLink",
      security: security.none,
      summary:
        "The recording of a reply to one of the link's storyteller's own stories, with HTTP Range support",
      params: linkReplyParamsSchema,
    },
    handler: async (request, reply) => {
      const { token, id, replyId } = request.params;
      return sendAudio(request, reply, audio, await links.replyAudio(token, id, replyId));
    },
  });

  // ---- "Start from a photo" through the link ---------------------------------------------------

  await app.register(async (photoApp) => {
    // Encapsulated: only this route parses multipart bodies here.
    await photoApp.register(fastifyMultipart, {
      limits: { fileSize: config.PHOTO_MAX_BYTES, files: 1, fields: 10, parts: 11 },
    });
    photoApp.withTypeProvider<ZodTypeProvider>().post(
      "/record/:token/memories/:id/photos",
      {
        config: {
          rateLimit: {
            max: config.RATE_LIMIT_PHOTOS_PER_HOUR,
            timeWindow: HOUR_MS,
            keyGenerator: (request: FastifyRequest) => {
              const { token } = request.params as { token?: string };
              return `photo-link:${request.ip}:${hashToken(token ?? "")}`;
            },
          },
        },
        schema: {
          operationId: "addPhotoThroughLink",
          security: security.none,
          summary:
            "Adds the photo a story was started from to one of the link's storyteller's own stories (multipart field `photo`)",
          description:
            "As POST /api/memories/{id}/photos, for a story told by the link's member only: any other memory answers 404.",
          consumes: ["multipart/form-data"],
          params: recordingStoryParamsSchema,
          response: {
            201: photoSchema,
            413: errorResponseSchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const bytes = await readPhotoUpload(request, config.PHOTO_MAX_BYTES);
        const { token, id } = request.params;
        return reply.code(201).send(await links.addPhoto(token, id, bytes));
      },
    );
  });
};
