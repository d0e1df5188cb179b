import type { FastifyRequest } from "fastify";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a state-changing request comes from another site: the browser says so in
 * Sec-Fetch-Site, or its Origin names a host other than ours (or APP_URL's).
 * Requests without either header (curl, server-to-server, tests) pass.
 */
export function isCrossSite(request: FastifyRequest, appUrl: string | undefined): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true; // "null" (sandboxed frames, some redirects) or garbage
  }
  if (originHost === ownHost(request)) return false;
  return !(appUrl && originHost === new URL(appUrl).host);
}

/** Our host as an Origin would name it (the default port dropped). */
function ownHost(request: FastifyRequest): string {
  try {
    return new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    return request.host;
  }
}
