import fp from "fastify-plugin";
import { type Identity, resolveIdentity, type SessionService } from "../auth/session.service";
import { readShareTokens } from "../share-links/share-cookie";
import type { ShareLinksService } from "../share-links/share-links.service";

/**
 * Resolves the session of every request routed in the scope it is registered in (the API). It is
 * a hook of that scope, not a test of the URL, so every spelling of a path that reaches an API
 * route (`/%61pi/...` included) gets it. The owners this browser's share links still unlock are
 * looked up here too, on every request, so a revoked link grants nothing from then on (ADR 0019).
 */
export const identityPlugin = fp<{
  sessions: SessionService;
  shareLinks: Pick<ShareLinksService, "grantedOwners">;
}>(
  async (app, { sessions, shareLinks }) => {
    app.decorateRequest("identity", null as unknown as Identity);
    app.addHook("onRequest", async (request) => {
      const identity = await resolveIdentity(request, sessions);
      const tokens = readShareTokens(request);
      request.identity =
        tokens.length === 0
          ? identity
          : { ...identity, sharedOwnerIds: await shareLinks.grantedOwners(tokens) };
    });
  },
  { name: "identity" },
);
