import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { directionOf, type Language } from "../../shared/i18n/languages";
import { okResponseSchema } from "../../shared/schemas";
import { newsUnsubscribeQuerySchema, relativeNewsBodySchema } from "../../shared/share-links";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { escapeHtml } from "../http/html";
import { acceptOneClickForm } from "../http/one-click-form";
import { badRequest, errorResponses } from "../http-errors";
import { wordsIn } from "../i18n/words";
import type { RelativeNewsService } from "./relative-news.service";
import { readShareTokens } from "./share-cookie";

const errors = errorResponses(400, 401, 404, 409, 429);

/**
 * The pages' own style sheet (they load nothing else): the app's colours and type, a readable
 * measure, and a button as large as the app's.
 */
const PAGE_STYLE = [
  "*{box-sizing:border-box}",
  "html{-webkit-text-size-adjust:100%}",
  "body{margin:0;background:#f5f3ff;color:#1e293b;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:1.125rem;line-height:1.6}",
  "main{max-width:32rem;margin:3rem auto;padding:2rem 1.5rem;background:#fff;border-radius:1rem;box-shadow:0 1px 3px rgba(15,23,42,.12);text-align:center}",
  "h1{margin:0 0 1rem;font-size:1.5rem;line-height:1.3;color:#5b21b6}",
  "p{margin:0 0 1.5rem}",
  "form{margin:0}",
  "button{min-height:2.75rem;padding:.6rem 1.4rem;border:0;border-radius:.5rem;background:#6d28d9;color:#fff;font:inherit;font-weight:600;cursor:pointer}",
  "button:hover{background:#5b21b6}",
  "button:focus-visible{outline:2px solid #6d28d9;outline-offset:2px}",
  "@media (max-width:30rem){main{margin:1rem;padding:1.5rem 1rem}}",
].join("");

/**
 * The small page a person sees from the mail's link: a question with a button, or the outcome,
 * in the language of the mail's reader.
 */
export function page(
  reply: FastifyReply,
  status: number,
  body: string,
  title: string,
  language: Language,
): FastifyReply {
  const html = `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return (
    reply
      .code(status)
      .header("cache-control", "no-store")
      // Not no-referrer: the browser would then send `Origin: null` with the form, refused as
      // cross-site. The page loads nothing from elsewhere and links nowhere.
      .header("referrer-policy", "same-origin")
      .type("text/html; charset=utf-8")
      .send(html)
  );
}

/** A button that POSTs the page's own signed query back. */
function postButton(
  query: { s: string; l: string; t: string },
  label: string,
  hidden = "",
): string {
  const action = `?${new URLSearchParams(query)}`;
  return `<form method="post" action="${escapeHtml(action)}">${hidden}<button type="submit">${escapeHtml(label)}</button></form>`;
}

/**
 * Relatives' news (ADR 0044): a link holder asks for it (POST /api/relative-news) and the address
 * confirms it from the mail's signed link (double opt-in), the owner takes an address off a link,
 * and the mail's signed one-click unsubscribe (RFC 8058): a POST stops the mails without login.
 * A GET of either link only shows a page asking (mail scanners open links); its button POSTs.
 */
export const relativeNewsRoutes: FastifyPluginAsyncZod<{
  news: RelativeNewsService;
  config: Pick<Config, "RATE_LIMIT_SHARE_LINKS_PER_HOUR" | "RATE_LIMIT_AUTH_PER_MINUTE">;
}> = async (app, { news, config }) => {
  acceptOneClickForm(app);

  app.post(
    "/relative-news",
    {
      config: {
        // Anonymous, and each address may be mailed later: bounded per client address.
        rateLimit: {
          max: config.RATE_LIMIT_SHARE_LINKS_PER_HOUR,
          timeWindow: "1 hour",
          keyGenerator: (request) => `relative-news:${request.ip}`,
        },
      },
      schema: {
        operationId: "subscribeToRelativeNews",
        security: security.none,
        summary: "A relative holding a share link asks to be mailed when new memories are saved",
        description:
          "The browser must hold a live share link to `username`'s memories (its share cookie); the address is then mailed a confirmation link (at most one a day), and once it confirms, new memories through that link, at most once per RELATIVE_DIGEST_MINUTES. The mails and the pages of their links are written in `language` (the journal's when absent). 404 without such a link.",
        body: relativeNewsBodySchema,
        response: { 201: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { username, email, language } = request.body;
      await news.subscribeWithTokens(readShareTokens(request), username, email, language);
      return reply.code(201).send({ ok: true as const });
    },
  );

  app.delete(
    "/share-links/:id/subscribers/:subscriberId",
    {
      schema: {
        operationId: "removeRelativeNewsSubscriber",
        security: security.session,
        summary: "The owner stops the news mails of one address on their share link",
        params: z.object({ id: z.string().min(1), subscriberId: z.string().min(1) }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await news.remove(request.identity, request.params.id, request.params.subscriberId);
      return reply.code(204).send(null);
    },
  );

  const unsubscribeLimit = {
    rateLimit: { max: config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: "1 minute" },
  };

  app.get(
    "/relative-news/unsubscribe",
    {
      config: unsubscribeLimit,
      schema: {
        operationId: "getRelativeNewsUnsubscribePage",
        security: security.none,
        summary: "The page of a news mail's unsubscribe link: asks to confirm, changes nothing",
        querystring: newsUnsubscribeQuerySchema,
      },
    },
    async (request, reply) => {
      const { s, l, t } = request.query;
      const language = await news.languageOfLink("unsubscribe", s, l, t);
      const words = wordsIn(language).SHARE_MESSAGES;
      const title = words.unsubscribeTitle;
      if (!(await news.checkUnsubscribe(s, l, t))) {
        return page(reply, 400, `<p>${escapeHtml(words.unsubscribeInvalid)}</p>`, title, language);
      }
      return page(
        reply,
        200,
        `<p>${escapeHtml(words.unsubscribeExplain)}</p>${postButton(
          { s, l, t },
          words.unsubscribeButton,
          '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
        )}`,
        title,
        language,
      );
    },
  );

  app.post(
    "/relative-news/unsubscribe",
    {
      config: unsubscribeLimit,
      schema: {
        operationId: "unsubscribeFromRelativeNews",
        security: security.none,
        summary: "One-click unsubscribe from a relative's news mails (RFC 8058); signed, no login",
        querystring: newsUnsubscribeQuerySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { s, l, t } = request.query;
      // Read before the address leaves the link.
      const language = await news.languageOfLink("unsubscribe", s, l, t);
      const done = await news.unsubscribe(s, l, t);
      // The confirmation page's form wants a page back; a mail provider, JSON.
      if (request.headers.accept?.includes("text/html")) {
        const words = wordsIn(language).SHARE_MESSAGES;
        const text = done ? words.unsubscribeDone : words.unsubscribeInvalid;
        const body = `<p role="status">${escapeHtml(text)}</p>`;
        return page(reply, done ? 200 : 400, body, words.unsubscribeTitle, language);
      }
      if (!done) throw badRequest("share.unsubscribe_invalid");
      return { ok: true as const };
    },
  );

  app.get(
    "/relative-news/confirm",
    {
      config: unsubscribeLimit,
      schema: {
        operationId: "getRelativeNewsConfirmPage",
        security: security.none,
        summary: "The page of a confirmation mail's link: asks to confirm, changes nothing",
        querystring: newsUnsubscribeQuerySchema,
      },
    },
    async (request, reply) => {
      const { s, l, t } = request.query;
      const language = await news.languageOfLink("confirm", s, l, t);
      const words = wordsIn(language).SHARE_MESSAGES;
      const title = words.confirmTitle;
      const state = await news.confirmation(s, l, t);
      if (state === "invalid") {
        return page(reply, 400, `<p>${escapeHtml(words.confirmInvalid)}</p>`, title, language);
      }
      if (state === "confirmed") {
        return page(reply, 200, `<p>${escapeHtml(words.confirmDone)}</p>`, title, language);
      }
      return page(
        reply,
        200,
        `<p>${escapeHtml(words.confirmExplain)}</p>${postButton({ s, l, t }, words.confirmButton)}`,
        title,
        language,
      );
    },
  );

  app.post(
    "/relative-news/confirm",
    {
      config: unsubscribeLimit,
      schema: {
        operationId: "confirmRelativeNews",
        security: security.none,
        summary: "An address confirms it wants a relative's news mails (double opt-in); signed",
        querystring: newsUnsubscribeQuerySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { s, l, t } = request.query;
      const done = await news.confirm(s, l, t);
      if (request.headers.accept?.includes("text/html")) {
        const language = await news.languageOfLink("confirm", s, l, t);
        const words = wordsIn(language).SHARE_MESSAGES;
        const text = done ? words.confirmDone : words.confirmInvalid;
        const body = `<p role="status">${escapeHtml(text)}</p>`;
        return page(reply, done ? 200 : 400, body, words.confirmTitle, language);
      }
      if (!done) throw badRequest("share.confirm_invalid");
      return { ok: true as const };
    },
  );
};
