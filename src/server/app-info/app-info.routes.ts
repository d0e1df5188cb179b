import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { appInfoSchema } from "../../shared/schemas";
import { type Config, linkBaseOf } from "../config";
import { security } from "../http/api-security";

/** Non-secret settings the web app displays. */
export const appInfoRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    "/app-info",
    {
      schema: {
        operationId: "getAppInfo",
        security: security.none,
        summary: "Public settings shown by the web app",
        response: { 200: appInfoSchema },
      },
    },
    async (request) => ({
      featureRequestContact: config.FEATURE_REQUEST_CONTACT,
      linkBase: linkBaseOf(config, request),
    }),
  );
};
