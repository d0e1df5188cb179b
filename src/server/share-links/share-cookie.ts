import type { FastifyReply, FastifyRequest } from "fastify";
import { SHARE_TOKEN_PATTERN } from "../../shared/share-links";
import { isSecure } from "../auth/session.service";
import type { Config } from "../config";
import { MAX_GRANTS_PER_BROWSER } from "./share-links.service";

/** The share links this browser opened: their tokens, newest first, separated by dots. */
export const SHARE_COOKIE = "vmj_share";

/** The well-formed tokens in this browser's share cookie (at most MAX_GRANTS_PER_BROWSER). */
export function readShareTokens(request: FastifyRequest): string[] {
  const value = request.cookies[SHARE_COOKIE];
  if (!value) return [];
  return value
    .split(".")
    .filter((token) => SHARE_TOKEN_PATTERN.test(token))
    .slice(0, MAX_GRANTS_PER_BROWSER);
}

/**
 * Adds a link's token to the browser's share cookie: HttpOnly (no script reads it), SameSite=Lax,
 * for a year; the server still checks each token on every request, so revoking needs no cookie.
 */
export function addShareToken(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<Config, "COOKIE_SECURE">,
  token: string,
): void {
  const tokens = [token, ...readShareTokens(request).filter((t) => t !== token)].slice(
    0,
    MAX_GRANTS_PER_BROWSER,
  );
  reply.setCookie(SHARE_COOKIE, tokens.join("."), {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request, config),
    maxAge: 365 * 24 * 60 * 60,
  });
}
