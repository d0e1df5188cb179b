import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import fp from "fastify-plugin";
import type { Language } from "../../shared/i18n/languages";
import type { CurrentQuestion } from "../../shared/reminders";
import { CLIENT_ROUTES, type ClientRouteMatch, matchClientRoute } from "../../shared/routes";
import {
  idParamsSchema,
  type Memory,
  type MemoryOwner,
  type SharedWithMe,
  type User,
} from "../../shared/schemas";
import { AppShell } from "../app-shell";
import { type Identity, SESSION_COOKIE, type SessionService } from "../auth/session.service";
import { errorBody } from "../http-errors";
import type { RecordingLinksService } from "../journals/recording-links.service";
import type { MemoriesService } from "../memories/memories.service";
import type { QuestionsService } from "../reminders/questions.service";
import { readShareTokens } from "../share-links/share-cookie";
import type { UsersService } from "../users/users.service";
import { type IdentitySources, identify } from "./identity";

/**
 * The built web app: its hashed assets (with their .br/.gz copies), and for every other GET the
 * single-page app's shell carrying the logged-in user: 200 on the app's screens (the shared route
 * list), 404 elsewhere (the shell then shows the app's 404 page). API paths that match no route
 * answer 404 JSON; without a built client (API-only tests) so does everything else. The home page
 * also carries the user's current question (read as GET /api/question reads it, so the rotation
 * moves only on POST /api/question/next), for the prompt above the recorder to paint with the page.
 * A
 * memory's page carries the memory when this request may see it, decided and shaped exactly as
 * GET /api/memories/{id} does (ADR 0031), and answers 404 when it may not. A recording link's
 * page answers 404 when its link is dead (ADR 0060), and speaks its storyteller's language. A logged-out browser's page says whose
 * memories its share links open (as GET /api/shared-with-me would), so a relative's top bar never
 * offers Log in, even for a moment.
 */
export const webApp = fp<{
  clientDir: string | undefined;
  sessions: SessionService;
  identitySources: IdentitySources;
  users: UsersService;
  questions: QuestionsService;
  memories: Pick<MemoriesService, "findVisible">;
  recordingLinks: Pick<RecordingLinksService, "pageLanguage">;
}>(
  async (
    app,
    { clientDir, sessions, identitySources, users, questions, memories, recordingLinks },
  ) => {
    const indexHtml = clientDir ? path.join(clientDir, "index.html") : undefined;
    const appShell = indexHtml && existsSync(indexHtml) ? new AppShell(indexHtml) : undefined;
    if (clientDir && appShell) {
      await app.register(fastifyStatic, {
        root: clientDir,
        wildcard: false,
        index: false,
        // The build writes .br/.gz copies of the text assets (scripts/precompress.ts).
        preCompressed: true,
        setHeaders(reply, filePath) {
          // Vite puts content hashes in asset names, so they never change.
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            reply.header("cache-control", "public, max-age=31536000, immutable");
          } else {
            reply.header("cache-control", "no-cache");
          }
        },
      });
    }

    /** What GET /api/memories/{id} would answer this request; an id it rejects is no memory. */
    const visibleMemory = async (
      route: ClientRouteMatch,
      identity: Identity,
    ): Promise<{ memory: Memory; owner: MemoryOwner } | undefined> => {
      const params = idParamsSchema.safeParse(route.params);
      return params.success ? memories.findVisible(params.data.id, identity) : undefined;
    };

    app.setNotFoundHandler(async (request, reply) => {
      const url = request.url.split("?")[0] ?? "";
      if (url === "/api" || url.startsWith("/api/") || !appShell) {
        return reply.code(404).send(errorBody("not_found"));
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        return reply.code(404).send(errorBody("not_found"));
      }
      // Every other path gets the single-page app; on a path that is none of its screens it shows
      // its 404 page, and the status says so too (for crawlers, link checkers and monitoring).
      const route = matchClientRoute(url);
      let status = route ? 200 : 404;
      let user: User | null | undefined;
      let question: CurrentQuestion | undefined;
      let memory: { memory: Memory; owner: MemoryOwner } | undefined;
      let sharedWithMe: SharedWithMe | undefined;
      let identity: Identity | undefined;
      let language: Language | undefined;
      try {
        if (route?.name === "memory") {
          identity = await identify(request, sessions, identitySources);
          [user, memory] = await Promise.all([
            identity.userId ? users.getUser(identity.userId) : null,
            visibleMemory(route, identity),
          ]);
          // Missing, or not this browser's to see: the page shows the app's 404, as the API says.
          if (!memory) status = 404;
        } else {
          const userId = await sessions.resolve(request.cookies[SESSION_COOKIE]);
          if (userId && url === CLIENT_ROUTES.home) {
            [user, question] = await Promise.all([
              users.getUser(userId),
              // Without it the page still works: it asks GET /api/question itself.
              questions.current(userId).catch((error: unknown) => {
                request.log.warn({ err: error }, "app shell: question lookup failed");
                return undefined;
              }),
            ]);
          } else {
            user = userId ? await users.getUser(userId) : null;
          }
        }
        // A dead or stopped recording link: the page shows the app's 404, as the API says. A live
        // one speaks its storyteller's language (else the journal's) from the first render.
        if (route?.name === "recordingLink") {
          const spoken = await recordingLinks.pageLanguage(route.params.token ?? "");
          if (spoken) language = spoken;
          else status = 404;
        }
        // A logged-out browser learns with the page whether it is a relative's (its share links
        // still open someone's memories), so its top bar never shows Log in while it asks.
        if (user === null) {
          const tokens = readShareTokens(request);
          sharedWithMe =
            tokens.length === 0
              ? { owners: [] }
              : await users.sharedWith(
                  identity ?? (await identify(request, sessions, identitySources)),
                );
        }
      } catch (error) {
        // The page still loads (and shows the API's error) when the database is unreachable.
        request.log.warn({ err: error }, "app shell: lookup failed");
      }
      // A recording link's token is in its address: never sent on in a Referer.
      if (route?.name === "recordingLink") reply.header("referrer-policy", "no-referrer");
      // Per visitor (it holds their user, question or memory), so shared caches must not keep it.
      return reply
        .code(status)
        .header("cache-control", "private, no-cache")
        .type("text/html; charset=utf-8")
        .send(
          await appShell.render(user, {
            question,
            memory: memory?.memory,
            owner: memory?.owner,
            sharedWithMe,
            language,
          }),
        );
    });
  },
  { name: "web-app" },
);
