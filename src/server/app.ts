import { existsSync } from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { MESSAGES } from "../shared/messages";
import type { User } from "../shared/schemas";
import type { AiProviders } from "./ai/ai";
import { createAi } from "./ai/ai-factory";
import { appInfoRoutes } from "./app-info/app-info.routes";
import { AppShell } from "./app-shell";
import { audioRoutes } from "./audio/audio.routes";
import { createAudioService } from "./audio/audio.service";
import { authRoutes } from "./auth/auth.routes";
import { AuthService } from "./auth/auth.service";
import { isCrossSite } from "./auth/cross-site";
import {
  type Identity,
  resolveIdentity,
  SESSION_COOKIE,
  SessionService,
} from "./auth/session.service";
import { SessionsRepo } from "./auth/sessions.repo";
import { transcribeCommentHandler } from "./comments/comments.jobs";
import { CommentsRepo } from "./comments/comments.repo";
import { commentsRoutes } from "./comments/comments.routes";
import { CommentsService, TRANSCRIBE_COMMENT_JOB } from "./comments/comments.service";
import type { Config } from "./config";
import type { DatabaseHandle } from "./db/connection";
import { healthRoutes } from "./health/health.routes";
import { HttpError } from "./http-errors";
import { JobsRepo } from "./jobs/jobs.repo";
import { JobWorker } from "./jobs/worker";
import { createMailer, type Mailer } from "./mail/mailer";
import { MemoriesRepo } from "./memories/memories.repo";
import { memoriesRoutes } from "./memories/memories.routes";
import { MemoriesService } from "./memories/memories.service";
import { MemoriesBackup } from "./memories/memories-backup";
import { MemoryPipeline, PROCESS_MEMORY_JOB } from "./memories/memory-pipeline";
import { memoryProcessingRoutes } from "./memories/memory-processing.routes";
import { MemoryProcessingService } from "./memories/memory-processing.service";
import { databaseRateLimitStore, RateLimitCounters } from "./rate-limit-store";
import type { AudioStorage } from "./storage/audio-storage";
import { UsersRepo } from "./users/users.repo";
import { usersRoutes } from "./users/users.routes";
import { UsersService } from "./users/users.service";

/** Everything the app needs, built by main.ts (or a test) and passed in. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  storage: AudioStorage;
  /** The AI providers; chosen from the configuration when absent. */
  ai?: AiProviders;
  /** The built web app; when absent (server tests) only the API is served. */
  clientDir?: string;
  /** Defaults to SMTP when SMTP_URL is set, else the DATA_DIR/outbox folder. */
  mailer?: Mailer;
  logger?: FastifyServerOptions["logger"];
}

export type App = FastifyInstance;

declare module "fastify" {
  interface FastifyInstance {
    /** The processing queue's worker; main.ts starts it, closing the app stops it. */
    worker: JobWorker;
  }
}

/** Builds the Fastify app without listening; tests use `inject()`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Keep default error serialization out of the way: our handler shapes every error.
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler<FastifyError>((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath?.replace(/^\//, "").replace(/\//g, ".") ?? "";
      const where = error.validationContext ?? "body";
      const message = first
        ? `${where}${field ? `.${field}` : ""}: ${first.message}`
        : "Invalid request";
      return reply.code(400).send({ message });
    }
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ message: MESSAGES.tooManyRequests });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type, body too large) are safe.
      return reply.code(status).send({ message: error.message });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({ message: MESSAGES.internalError });
  });

  await app.register(fastifyCookie);
  // Limits are set per route (auth routes: RATE_LIMIT_AUTH_PER_MINUTE per IP and per account).
  await app.register(rateLimit, {
    global: false,
    // Counters in the database: shared by every instance on one PostgreSQL, kept across restarts.
    store: databaseRateLimitStore(new RateLimitCounters(deps.database.db)),
    errorResponseBuilder: () => ({ statusCode: 429, message: MESSAGES.tooManyRequests }),
  });

  // No CORS is configured, and state-changing API calls from another site are refused outright,
  // so a foreign page cannot act with a visitor's cookie.
  app.addHook("onRequest", async (request, reply) => {
    if (request.url.startsWith("/api/") && isCrossSite(request, deps.config.APP_URL)) {
      return reply.code(403).send({ message: MESSAGES.crossSiteRefused });
    }
  });

  const audioService = createAudioService(deps);
  const sessions = new SessionService(new SessionsRepo(deps.database.db), deps.config);
  const usersService = new UsersService(new UsersRepo(deps.database.db));
  const authService = new AuthService({
    db: deps.database.db,
    sessions,
    mailer: deps.mailer ?? createMailer(deps.config, app.log),
    log: app.log,
  });
  app.addHook("onClose", async () => authService.drain());
  app.decorateRequest("identity", null as unknown as Identity);
  app.addHook("onRequest", async (request) => {
    // Static files and the app shell need no session lookup.
    request.identity = request.url.startsWith("/api/")
      ? await resolveIdentity(request, sessions)
      : { userId: null, visitorHash: null };
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", "blob:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: "Voice Memory Journal API",
        description: "Every route the web app uses. Errors are `{ message }`.",
        version: "1.0.0",
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  const memoriesRepo = new MemoriesRepo(deps.database.db, deps.database.kind);
  const memoriesService = new MemoriesService(memoriesRepo, usersService, deps.storage);

  const jobsRepo = new JobsRepo(deps.database.db, deps.database.kind);
  const ai = deps.ai ?? createAi(deps.config);
  const commentsRepo = new CommentsRepo(deps.database.db);
  const commentsService = new CommentsService(
    commentsRepo,
    memoriesService,
    audioService,
    jobsRepo,
  );
  const worker = new JobWorker(
    jobsRepo,
    {
      [PROCESS_MEMORY_JOB]: new MemoryPipeline(memoriesRepo, deps.storage, ai),
      [TRANSCRIBE_COMMENT_JOB]: transcribeCommentHandler({
        comments: commentsRepo,
        audio: audioService,
        transcriber: ai.transcriber,
      }),
    },
    {
      concurrency: deps.config.WORKER_CONCURRENCY,
      leaseMs: deps.config.JOB_LEASE_MS,
      logger: app.log,
    },
  );
  app.decorate("worker", worker);
  app.addHook("onClose", async () => {
    await worker.stop();
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database: deps.database });
      await api.register(appInfoRoutes, { config: deps.config });
      await api.register(memoriesRoutes, {
        memories: memoriesService,
        backup: new MemoriesBackup(memoriesRepo, deps.storage),
        users: usersService,
      });
      await api.register(authRoutes, {
        auth: authService,
        users: usersService,
        config: deps.config,
      });
      await api.register(usersRoutes, { users: usersService });
      await api.register(audioRoutes, { config: deps.config, audio: audioService });
      await api.register(commentsRoutes, {
        comments: commentsService,
        perMemoryPerHour: deps.config.RATE_LIMIT_COMMENTS_PER_HOUR,
      });
      await api.register(memoryProcessingRoutes, {
        processing: new MemoryProcessingService(
          memoriesRepo,
          memoriesService,
          jobsRepo,
          audioService,
          deps.config,
          () => worker.notify(),
        ),
        config: deps.config,
      });
      api.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: "/api" },
  );

  const clientDir = deps.clientDir;
  const indexHtml = clientDir ? path.join(clientDir, "index.html") : undefined;
  // Without a built client (API-only tests), every non-API path answers 404 JSON.
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

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0] ?? "";
    if (url === "/api" || url.startsWith("/api/") || !appShell) {
      return reply.code(404).send({ message: MESSAGES.notFound });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return reply.code(404).send({ message: MESSAGES.notFound });
    }
    // Every other path is a screen of the single-page app; it shows its own 404 page.
    let user: User | null | undefined;
    try {
      const userId = await sessions.resolve(request.cookies[SESSION_COOKIE]);
      user = userId ? await usersService.getUser(userId) : null;
    } catch (error) {
      // The page still loads (and shows the API's error) when the database is unreachable.
      request.log.warn({ err: error }, "app shell: session lookup failed");
    }
    // Per visitor (it holds their user), so shared caches must not keep it.
    return reply
      .header("cache-control", "private, no-cache")
      .type("text/html; charset=utf-8")
      .send(await appShell.render(user));
  });

  return app;
}
