import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { type Identity, resolveIdentity, type SessionService } from "../auth/session.service";
import type { JournalsRepo } from "../journals/journals.repo";
import { readShareTokens } from "../share-links/share-cookie";
import type { ShareLinksService } from "../share-links/share-links.service";

/** What the identity reads besides the session: share links' grants and journal memberships. */
export interface IdentitySources {
  shareLinks: Pick<ShareLinksService, "grantedJournals">;
  journals: Pick<JournalsRepo, "membershipsOf">;
}

/**
 * Who is asking: the session, the visitor mark, the account's journals and roles, and the
 * journals this browser's share links still unlock, looked up on every request so a removed member
 * or a revoked link is refused from then on (ADR 0019, 0057). The API's hook and a memory's page
 * (web-app.ts) both read it here, so they see the same.
 */
export async function identify(
  request: FastifyRequest,
  sessions: SessionService,
  { shareLinks, journals }: IdentitySources,
): Promise<Identity> {
  const identity = await resolveIdentity(request, sessions);
  const tokens = readShareTokens(request);
  const [memberships, sharedJournalIds] = await Promise.all([
    identity.userId ? journals.membershipsOf(identity.userId) : undefined,
    tokens.length > 0 ? shareLinks.grantedJournals(tokens) : undefined,
  ]);
  return {
    ...identity,
    ...(memberships ? { memberships } : {}),
    ...(sharedJournalIds ? { sharedJournalIds } : {}),
  };
}

/**
 * Resolves the identity of every request routed in the scope it is registered in (the API). It is
 * a hook of that scope, not a test of the URL, so every spelling of a path that reaches an API
 * route (`/%61pi/...` included) gets it.
 */
export const identityPlugin = fp<{ sessions: SessionService; sources: IdentitySources }>(
  async (app, { sessions, sources }) => {
    app.decorateRequest("identity", null as unknown as Identity);
    app.addHook("onRequest", async (request) => {
      request.identity = await identify(request, sessions, sources);
    });
  },
  { name: "identity" },
);
