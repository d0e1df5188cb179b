import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { type Identity, resolveIdentity, type SessionService } from "../auth/session.service";
import { readShareTokens } from "../share-links/share-cookie";
import type { ShareLinksService } from "../share-links/share-links.service";

/** The owners this browser's share links unlock (ADR 0019), as the identity carries them. */
export type ShareGrants = Pick<ShareLinksService, "grantedOwners">;

/**
 * Who is asking: the session, the visitor mark and the owners this browser's share links still
 * unlock, looked up on every request so a revoked link grants nothing from then on (ADR 0019).
 * The API's hook and a memory's page (web-app.ts) both read it here, so they see the same.
 */
export async function identify(
  request: FastifyRequest,
  sessions: SessionService,
  shareLinks: ShareGrants,
): Promise<Identity> {
  const identity = await resolveIdentity(request, sessions);
  const tokens = readShareTokens(request);
  return tokens.length === 0
    ? identity
    : { ...identity, sharedOwnerIds: await shareLinks.grantedOwners(tokens) };
}

/**
 * Resolves the identity of every request routed in the scope it is registered in (the API). It is
 * a hook of that scope, not a test of the URL, so every spelling of a path that reaches an API
 * route (`/%61pi/...` included) gets it.
 */
export const identityPlugin = fp<{ sessions: SessionService; shareLinks: ShareGrants }>(
  async (app, { sessions, shareLinks }) => {
    app.decorateRequest("identity", null as unknown as Identity);
    app.addHook("onRequest", async (request) => {
      request.identity = await identify(request, sessions, shareLinks);
    });
  },
  { name: "identity" },
);
