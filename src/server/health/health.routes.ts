import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponseSchema, healthResponseSchema } from "../../shared/schemas";
import { security } from "../http/api-security";
import { errorBody } from "../http-errors";
import type { HealthService } from "./health.service";

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (
  app,
  { health },
) => {
  app.get(
    "/health",
    {
      schema: {
        operationId: "getHealth",
        security: security.none,
        summary:
          "Reports whether the database and the audio storage answer, and how the job queue stands; 503 when either is unreachable",
        response: { 200: healthResponseSchema, 503: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const report = await health.check();
      if (report.healthy) return report.body;
      for (const { part, error } of report.unreachable) {
        request.log.error({ err: error, part }, "health check failed");
      }
      const parts = new Set(report.unreachable.map((u) => u.part));
      const code =
        parts.size === 2
          ? "database_and_storage_unreachable"
          : parts.has("database")
            ? "database_unreachable"
            : "storage_unreachable";
      return reply.code(503).send(errorBody(code));
    },
  );
};
