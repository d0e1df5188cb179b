import fp from "fastify-plugin";
import { MESSAGES } from "../../shared/messages";
import { isCrossSite } from "../auth/cross-site";

/**
 * Refuses state-changing requests from another site (no CORS is configured either), so a foreign
 * page cannot act with a visitor's cookie. A hook of the scope it is registered in: it runs for
 * every request that reaches a route there, however its path was encoded.
 */
export const crossSiteGuard = fp<{ appUrl: string | undefined }>(
  async (app, { appUrl }) => {
    app.addHook("onRequest", async (request, reply) => {
      if (isCrossSite(request, appUrl)) {
        return reply.code(403).send({ message: MESSAGES.crossSiteRefused });
      }
    });
  },
  { name: "cross-site-guard" },
);
