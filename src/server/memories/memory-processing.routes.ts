import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  idParamsSchema,
  memoryCreateBodySchema,
  memorySchema,
  processMemoryBodySchema,
} from "../../shared/schemas";
import { ensureVisitor } from "../auth/session.service";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { errorResponses, tooManyRequests } from "../http-errors";
import type { MemoryProcessingService } from "./memory-processing.service";

export interface MemoryProcessingRoutesOptions {
  processing: MemoryProcessingService;
  config: Pick<
    Config,
    "RATE_LIMIT_PROCESS_PER_HOUR" | "RATE_LIMIT_PROCESS_PER_DAY_PER_IP" | "COOKIE_SECURE"
  >;
}

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/** Processing costs money: limited per session (user or visitor) and client address. */
export function processRateKey(request: FastifyRequest): string {
  const who = request.identity.userId ?? request.identity.visitorHash ?? "nobody";
  return `process:${request.ip}:${who}`;
}

/**
 * Making memories of recordings. Progress is read by polling GET /api/memories/{id} (status and
 * stage), see docs/adr/0005-processing-pipeline.md.
 */
export const memoryProcessingRoutes: FastifyPluginAsyncZod<MemoryProcessingRoutesOptions> = async (
  app,
  { processing, config },
) => {
  const rateLimit = {
    max: config.RATE_LIMIT_PROCESS_PER_HOUR,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: processRateKey,
  };
  // A new visitor cookie or a new account starts a fresh session budget above, so the address
  // alone also has a daily one (shared by processing and retries, which both call the AI).
  const limitPerIpPerDay = dailyProcessingLimit(app, config);

  app.post(
    "/memories/process",
    {
      config: { rateLimit },
      preHandler: limitPerIpPerDay,
      schema: {
        operationId: "processMemory",
        security: security.optionalSession,
        summary:
          "Make a memory of an uploaded recording: answers it (201) in state 'processing'; the server then transcribes, summarizes, scores and tags it (poll GET /api/memories/{id}). Sent again for the same recording by the same owner, answers that memory (200).",
        body: processMemoryBodySchema,
        response: { 200: memorySchema, 201: memorySchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!request.identity.userId) ensureVisitor(request, reply, config);
      const { memory, created } = await processing.startProcessing(request.identity, request.body);
      return reply.code(created ? 201 : 200).send(memory);
    },
  );

  app.post(
    "/memories/:id/retry",
    {
      config: { rateLimit },
      preHandler: limitPerIpPerDay,
      schema: {
        operationId: "retryMemory",
        security: security.optionalSession,
        summary: "Resume a failed memory's processing at the stage that failed (owner only)",
        params: idParamsSchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => processing.retry(request.params.id, request.identity),
  );

  app.post(
    "/memories/:id/regenerate",
    {
      config: { rateLimit },
      preHandler: limitPerIpPerDay,
      schema: {
        operationId: "regenerateMemory",
        security: security.session,
        summary:
          "Make the summary, title, scores and tags again from the memory's transcript (owner only; after correcting the transcript). Answers the memory in state 'processing' at stage 'summarize'; poll GET /api/memories/{id}. 409 while it is processing.",
        params: idParamsSchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => processing.regenerate(request.params.id, request.identity),
  );

  app.post(
    "/memories/:id/claim",
    {
      schema: {
        operationId: "claimMemory",
        security: security.session,
        summary:
          "Attach a memory recorded while logged out to the account now logged in (same browser, once, within CLAIM_WINDOW_HOURS)",
        params: idParamsSchema,
        response: { 200: memorySchema, ...errors },
      },
    },
    async (request) => processing.claim(request.params.id, request.identity),
  );

  app.post(
    "/memories",
    {
      schema: {
        operationId: "createMemory",
        security: security.session,
        summary: "Create a saved memory from a full memory body on your uploaded audio",
        body: memoryCreateBodySchema,
        response: { 201: memorySchema, ...errors },
      },
    },
    async (request, reply) => {
      const memory = await processing.createDirect(request.identity, request.body);
      return reply.code(201).send(memory);
    },
  );
};

/**
 * The address's daily budget of AI processing (RATE_LIMIT_PROCESS_PER_DAY_PER_IP), one counter for
 * every route that makes a memory, as a preHandler: 429 with Retry-After past it.
 */
export function dailyProcessingLimit(
  app: FastifyInstance,
  config: Pick<Config, "RATE_LIMIT_PROCESS_PER_DAY_PER_IP">,
) {
  const perIpPerDay = app.createRateLimit({
    max: config.RATE_LIMIT_PROCESS_PER_DAY_PER_IP,
    timeWindow: 24 * 60 * 60 * 1000,
    keyGenerator: (request) => `process-day:${request.ip}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await perIpPerDay(request);
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header("retry-after", limit.ttlInSeconds);
      throw tooManyRequests();
    }
  };
}
