import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  idParamsSchema,
  journalParamsSchema,
  newRepliesSchema,
  okResponseSchema,
} from "../../shared/schemas";
import { security } from "../http/api-security";
import { escapeHtml } from "../http/html";
import { badRequest, errorResponses } from "../http-errors";
import { wordsIn } from "../i18n/words";
import { page } from "../share-links/relative-news.routes";
import type { RepliesService } from "./replies.service";

const errors = errorResponses(400, 401, 403, 404, 429);

/** The signed query of a replies mail's unsubscribe link: the member, and its signature. */
const repliesUnsubscribeQuerySchema = z.object({
  m: z.string().min(1).max(100),
  t: z.string().min(1).max(200),
});

/**
 * Replies reaching their storyteller (ADR 0063): which of their stories have new replies, marking
 * a story's replies heard, and the replies mail's one-click unsubscribe (RFC 8058, no login).
 */
export const repliesRoutes: FastifyPluginAsyncZod<{
  replies: RepliesService;
  unsubscribePerMinute: number;
}> = async (app, { replies, unsubscribePerMinute }) => {
  // RFC 8058: mail providers POST `List-Unsubscribe=One-Click` as a form; the query says who.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get(
    "/journals/:id/new-replies",
    {
      schema: {
        operationId: "listNewReplies",
        security: security.session,
        summary:
          "The caller's own stories in this journal with replies they have not heard, and how many",
        params: journalParamsSchema,
        response: { 200: newRepliesSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return replies.newInJournal(request.identity, request.params.id);
    },
  );

  app.post(
    "/memories/:id/replies/seen",
    {
      schema: {
        operationId: "markRepliesSeen",
        security: security.session,
        summary: "The storyteller who told this memory has heard its replies: none is new any more",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await replies.markSeen(request.identity, request.params.id);
      return reply.code(204).send(null);
    },
  );

  const unsubscribeLimit = { rateLimit: { max: unsubscribePerMinute, timeWindow: "1 minute" } };

  app.get(
    "/replies/unsubscribe",
    {
      config: unsubscribeLimit,
      schema: {
        operationId: "getRepliesUnsubscribePage",
        security: security.none,
        summary: "The page of a replies mail's unsubscribe link: asks to confirm, changes nothing",
        querystring: repliesUnsubscribeQuerySchema,
      },
    },
    async (request, reply) => {
      const { m, t } = request.query;
      const language = await replies.languageOfLink(m, t);
      const words = wordsIn(language).REPLIES_MAIL;
      const title = words.unsubscribeTitle;
      if (!(await replies.checkUnsubscribe(m, t))) {
        return page(reply, 400, `<p>${escapeHtml(words.unsubscribeInvalid)}</p>`, title, language);
      }
      const action = `?${new URLSearchParams({ m, t })}`;
      return page(
        reply,
        200,
        `<p>${escapeHtml(words.unsubscribeExplain)}</p><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(words.unsubscribeButton)}</button></form>`,
        title,
        language,
      );
    },
  );

  app.post(
    "/replies/unsubscribe",
    {
      config: unsubscribeLimit,
      schema: {
        operationId: "unsubscribeFromReplies",
        security: security.none,
        summary:
          "One-click unsubscribe from a storyteller's mails about replies (RFC 8058); signed, no login",
        querystring: repliesUnsubscribeQuerySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { m, t } = request.query;
      const done = await replies.unsubscribe(m, t);
      if (request.headers.accept?.includes("text/html")) {
        const language = await replies.languageOfLink(m, t);
        const words = wordsIn(language).REPLIES_MAIL;
        const text = done ? words.unsubscribeDone : words.unsubscribeInvalid;
        const body = `<p role="status">${escapeHtml(text)}</p>`;
        return page(reply, done ? 200 : 400, body, words.unsubscribeTitle, language);
      }
      if (!done) throw badRequest("replies.unsubscribe_invalid");
      return { ok: true as const };
    },
  );
};
