import fp from "fastify-plugin";
import { type Identity, resolveIdentity, type SessionService } from "../auth/session.service";

/**
 * Resolves the session of every request routed in the scope it is registered in (the API). It is
 * a hook of that scope, not a test of the URL, so every spelling of a path that reaches an API
 * route (`/%61pi/...` included) gets it.
 */
export const identityPlugin = fp<{ sessions: SessionService }>(
  async (app, { sessions }) => {
    app.decorateRequest("identity", null as unknown as Identity);
    app.addHook("onRequest", async (request) => {
      request.identity = await resolveIdentity(request, sessions);
    });
  },
  { name: "identity" },
);
