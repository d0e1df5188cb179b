import type { FastifyRequest } from "fastify";
import { SHARE_LINK_PATH_PREFIX } from "../../shared/share-links";

// Built once, not per call: the serializer runs for every request logged.
const SHARE_LINK_TOKEN = new RegExp(`^${SHARE_LINK_PATH_PREFIX.replace(/\//g, "\\/")}[^/?#]*`, "i");

/**
 * Credentials that travel in URLs never reach the log: the token of a share link (`/s/<token>`,
 * ADR 0019), of a password-reset link (`?token=`) and of a reminder mail's unsubscribe link
 * (`?t=`, ADR 0020). Applied to every request Fastify logs.
 */
export function redactUrl(url: string): string {
  return url
    .replace(SHARE_LINK_TOKEN, `${SHARE_LINK_PATH_PREFIX}[redacted]`)
    .replace(/([?&]token=)[^&#]*/gi, "$1[redacted]")
    .replace(/([?&]t=)[^&#]*/g, "$1[redacted]");
}

/** pino serializers for main.ts's logger; Fastify merges them over its own. */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};
