import fp from "fastify-plugin";
import { isCrossSite } from "../auth/cross-site";
import { errorBody } from "../http-errors";

/**
 * Refuses state-changing requests from another site (no CORS is configured either), so a foreign
 * page cannot act with a visitor's cookie. A hook of the scope it is registered in: it runs for
 * every request that reaches a route there, however its path was encoded.
 */
export const crossSiteGuard = fp<{ appUrl: string | undefined }>(
  async (app, { appUrl }) => {
    // A callback hook (it never waits): no promise on every request. A refused request is
    // answered here and the hook chain stops, as `reply.send` in a hook does.
    app.addHook("onRequest", (request, reply, done) => {
      if (isCrossSite(request, appUrl)) {
        reply.code(403).send(errorBody("cross_site_refused"));
        return;
      }
      done();
    });
  },
  { name: "cross-site-guard" },
);
