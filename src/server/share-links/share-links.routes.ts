import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, journalQuerySchema } from "../../shared/schemas";
import {
  createdShareLinkSchema,
  createShareLinkBodySchema,
  SHARE_LINK_PATH_PREFIX,
  shareLinkListSchema,
} from "../../shared/share-links";
import { type Config, linkBaseOf } from "../config";
import { security } from "../http/api-security";
import { errorResponses } from "../http-errors";
import type { JournalsService } from "../journals/journals.service";
import { addShareToken } from "./share-cookie";
import type { ShareLinksService } from "./share-links.service";

/** A memory id in a book's link (ids are base64url); anything else is answered as missing. */
const MEMORY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/**
 * The owner's side of share links (ADR 0019), under /api: create (and mail), list, revoke. Only a
 * logged-in user manages their own links; a share link itself never unlocks these routes.
 */
export const shareLinksRoutes: FastifyPluginAsyncZod<{
  shareLinks: ShareLinksService;
  journals: Pick<JournalsService, "organizerOf">;
  config: Pick<Config, "RATE_LIMIT_SHARE_LINKS_PER_HOUR" | "APP_URL" | "PORT">;
}> = async (app, { shareLinks, journals, config }) => {
  app.post(
    "/share-links",
    {
      config: {
        // Each may mail an address: bounded per account (and per address when logged out).
        rateLimit: {
          max: config.RATE_LIMIT_SHARE_LINKS_PER_HOUR,
          timeWindow: "1 hour",
          keyGenerator: (request) => `share-link-create:${request.identity.userId ?? request.ip}`,
        },
      },
      schema: {
        operationId: "createShareLink",
        security: security.session,
        summary:
          "Creates a named share link of the logged-in user's profile (its url is shown once)",
        description:
          "Whoever opens the answered `url` can see this profile as if it were public (its memories, their audio, spoken comments), and nothing else, until the link is revoked. With `email`, the link is also mailed there (`mailed` says whether that worked).",
        querystring: journalQuerySchema,
        body: createShareLinkBodySchema,
        response: { 201: createdShareLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await shareLinks.create(
        journals.organizerOf(request.identity, request.query.journal),
        request.body,
        linkBaseOf(config, request),
      );
      return reply.code(201).header("cache-control", "no-store").send(created);
    },
  );

  app.get(
    "/share-links",
    {
      schema: {
        operationId: "listShareLinks",
        security: security.session,
        summary: "A journal's share links (the caller's own, or `journal`'s), newest first",
        querystring: journalQuerySchema,
        response: { 200: shareLinkListSchema, ...errors },
      },
    },
    async (request) =>
      shareLinks.list(journals.organizerOf(request.identity, request.query.journal).journalId),
  );

  app.delete(
    "/share-links/:id",
    {
      schema: {
        operationId: "revokeShareLink",
        security: security.session,
        summary: "Revokes a share link: every browser that opened it loses access at once",
        params: idParamsSchema,
        querystring: journalQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { journalId } = journals.organizerOf(request.identity, request.query.journal);
      await shareLinks.revoke(journalId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

/**
 * `GET /s/<token>`, where a share link lands in a browser. A live link adds its token to the
 * browser's HttpOnly share cookie and redirects to the profile, so the token leaves the address
 * bar at once; `Referrer-Policy: no-referrer` keeps it out of any `Referer`. A malformed, unknown
 * or revoked token is answered exactly like a profile that does not exist (the not-found handler
 * serves it, as for `/profile/<missing>`). Rate-limited per address, so guessing stays hopeless.
 * The route logs below `info`, and the request serializer redacts the token besides.
 */
export const shareLinkOpenRoute: FastifyPluginAsync<{
  shareLinks: ShareLinksService;
  config: Pick<Config, "RATE_LIMIT_SHARE_OPEN_PER_MINUTE" | "COOKIE_SECURE">;
}> = async (app, { shareLinks, config }) => {
  // A wildcard, not `:token`: a named parameter over 100 characters would answer 414, not 404.
  app.get<{ Params: { "*": string } }>(
    `${SHARE_LINK_PATH_PREFIX}*`,
    {
      logLevel: "warn",
      // A HEAD (a link checker, a chat app's preview) neither counts a visit nor gets a grant.
      exposeHeadRoute: false,
      config: {
        rateLimit: { max: config.RATE_LIMIT_SHARE_OPEN_PER_MINUTE, timeWindow: "1 minute" },
      },
      schema: { hide: true },
    },
    async (request, reply) => {
      reply.header("referrer-policy", "no-referrer").header("cache-control", "no-store");
      // `<token>`, or `<token>/<memory id>` from a memory book's QR code (ADR 0042).
      const [token = "", memoryId, ...rest] = request.params["*"].split("/");
      if (rest.length > 0 || (memoryId !== undefined && !MEMORY_ID_PATTERN.test(memoryId))) {
        return reply.callNotFound();
      }
      const opened = await shareLinks.open(token);
      if (!opened) return reply.callNotFound();
      addShareToken(request, reply, config, token);
      // The memory page itself checks that the link shows this memory (its owner's, saved).
      const target = memoryId
        ? `/memory/${memoryId}`
        : `/profile/${encodeURIComponent(opened.username)}`;
      return reply.redirect(target, 303);
    },
  );
};
