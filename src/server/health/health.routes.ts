import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponseSchema, healthResponseSchema } from "../../shared/schemas";
import type { DatabaseHandle } from "../db/connection";

export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  app.get(
    "/health",
    {
      schema: {
        summary: "Reports whether the database is reachable",
        response: { 200: healthResponseSchema, 503: errorResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        await database.ping();
        return { status: "ok" as const, database: database.kind };
      } catch (error) {
        request.log.error({ err: error }, "health check failed");
        return reply.code(503).send({ message: "Database unreachable" });
      }
    },
  );
};
