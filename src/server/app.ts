import fastifyCookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { MESSAGES } from "../shared/messages";
import { appInfoRoutes } from "./app-info/app-info.routes";
import { audioRoutes } from "./audio/audio.routes";
import { authRoutes } from "./auth/auth.routes";
import { commentsRoutes } from "./comments/comments.routes";
import { repliesRoutes } from "./comments/replies.routes";
import type { Services } from "./compose";
import type { Config } from "./config";
import { healthRoutes } from "./health/health.routes";
import { errorHandler } from "./http/error-handler";
import { nulGuard } from "./http/nul-guard";
import type { JobWorker } from "./jobs/worker";
import { journalsRoutes } from "./journals/journals.routes";
import { recordingLinksRoutes } from "./journals/recording-links.routes";
import { memoriesRoutes } from "./memories/memories.routes";
import { memoryProcessingRoutes } from "./memories/memory-processing.routes";
import { restoreRoutes } from "./memories/restore.routes";
import { transcriptsRoutes } from "./memories/transcripts.routes";
import { photosRoutes } from "./photos/photos.routes";
import { apiDocs } from "./plugins/api-docs";
import { crossSiteGuard } from "./plugins/cross-site-guard";
import { identityPlugin } from "./plugins/identity";
import { metricsPlugin } from "./plugins/metrics";
import { securityHeaders } from "./plugins/security-headers";
import { webApp } from "./plugins/web-app";
import { databaseRateLimitStore } from "./rate-limit-store";
import { remindersRoutes } from "./reminders/reminders.routes";
import { relativeNewsRoutes } from "./share-links/relative-news.routes";
import { shareLinkOpenRoute, shareLinksRoutes } from "./share-links/share-links.routes";
import { accountRoutes } from "./users/account.routes";
import { usersRoutes } from "./users/users.routes";

/** What the HTTP app serves: the services (built by `createServices`) and where the web app is. */
export interface AppDeps {
  config: Config;
  services: Services;
  /** The built web app; when absent (server tests) only the API is served. */
  clientDir?: string;
  /** A pino logger (main.ts); tests log nothing. */
  logger?: FastifyServerOptions["loggerInstance"];
}

export type App = FastifyInstance;

declare module "fastify" {
  interface FastifyInstance {
    /** The processing queue's worker; main.ts starts it, closing the app stops it. */
    worker: JobWorker;
  }
}

/**
 * Builds the Fastify app without listening; tests use `inject()`. The whole server's shape:
 * cross-cutting plugins, then the API (identity and the cross-site guard apply to every API
 * route), then the web app.
 */
export async function buildApp({ config, services, clientDir, logger }: AppDeps): Promise<App> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Every response is checked by zod against its schema (undeclared fields dropped, a wrong value
  // refused with a 500), then written by JSON.stringify.
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  await app.register(nulGuard);
  if (config.METRICS_TOKEN) {
    // First, so its timing hook sees every route registered after it.
    await app.register(metricsPlugin, { metrics: services.metrics, token: config.METRICS_TOKEN });
  }

  await app.register(fastifyCookie);
  // Limits are set per route; counters live in the database, shared by every instance.
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(services.rateLimitCounters),
    errorResponseBuilder: () => ({ statusCode: 429, message: MESSAGES.tooManyRequests }),
  });
  await app.register(securityHeaders);
  await app.register(apiDocs);

  app.decorate("worker", services.worker);
  app.addHook("onClose", async () => services.close());

  await app.register(
    async (api) => {
      await api.register(crossSiteGuard, { appUrl: config.APP_URL });
      await api.register(identityPlugin, {
        sessions: services.sessions,
        sources: services.identitySources,
      });
      await api.register(healthRoutes, { health: services.health });
      await api.register(appInfoRoutes, { config });
      await api.register(authRoutes, { auth: services.auth, users: services.users, config });
      await api.register(usersRoutes, { users: services.users });
      await api.register(accountRoutes, { account: services.account, config });
      await api.register(memoriesRoutes, {
        memories: services.memories,
        backup: services.backup,
        users: services.users,
        book: services.book,
        journals: services.journals,
        config,
      });
      await api.register(memoryProcessingRoutes, { processing: services.processing, config });
      await api.register(transcriptsRoutes, { transcripts: services.transcripts });
      await api.register(restoreRoutes, {
        restore: services.restore,
        journals: services.journals,
        config,
      });
      await api.register(audioRoutes, { config, audio: services.audio, mayHear: services.mayHear });
      await api.register(photosRoutes, { config, photos: services.photos });
      await api.register(commentsRoutes, {
        comments: services.comments,
        perMemoryPerHour: config.RATE_LIMIT_COMMENTS_PER_HOUR,
      });
      await api.register(remindersRoutes, {
        reminders: services.reminders,
        questions: services.questions,
        unsubscribePerMinute: config.RATE_LIMIT_AUTH_PER_MINUTE,
        config,
      });
      await api.register(shareLinksRoutes, {
        shareLinks: services.shareLinks,
        journals: services.journals,
        config,
      });
      await api.register(journalsRoutes, {
        journals: services.journals,
        questions: services.familyQuestions,
        memories: services.memories,
        config,
      });
      await api.register(relativeNewsRoutes, { news: services.relativeNews, config });
      await api.register(repliesRoutes, {
        replies: services.replies,
        unsubscribePerMinute: config.RATE_LIMIT_AUTH_PER_MINUTE,
      });
      await api.register(recordingLinksRoutes, {
        links: services.recordingLinks,
        questionMail: services.questionMail,
        audio: services.audio,
        config,
      });
    },
    { prefix: "/api" },
  );

  await app.register(webApp, {
    clientDir,
    sessions: services.sessions,
    identitySources: services.identitySources,
    users: services.users,
    questions: services.questions,
    memories: services.memories,
    recordingLinks: services.recordingLinks,
  });
  // Where a share link lands (`/s/<token>`); a bad token falls through to the web app's 404 path.
  await app.register(shareLinkOpenRoute, { shareLinks: services.shareLinks, config });
  return app;
}
