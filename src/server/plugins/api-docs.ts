import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyPluginAsync } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** The OpenAPI document, generated from the routes' zod schemas, and its viewer at /api/docs. */
export const apiDocs: FastifyPluginAsync = fp(
  async (app) => {
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
    app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  },
  { name: "api-docs" },
);
