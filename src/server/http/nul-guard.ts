import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { badRequest } from "../http-errors";

/** True when `value` (a string, or any array or object holding one, keys included) has a NUL. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  // Parsed JSON is bounded by the body limit; the depth cap only keeps recursion safe.
  if (value === null || typeof value !== "object" || depth > 64) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => key.includes("\u0000") || containsNul(item, depth + 1),
  );
}

/** A NUL anywhere in the URL: percent-encoded in the raw path or query, or in decoded values. */
function urlHasNul(request: FastifyRequest): boolean {
  return (
    /%00/.test(request.url) ||
    request.url.includes("\u0000") ||
    containsNul(request.params) ||
    containsNul(request.query)
  );
}

/**
 * Refuses every request holding a NUL byte with 400 before any route, rate limit or database sees
 * it: PostgreSQL cannot store NUL in text (it answered 500 where SQLite answered 404), and no field
 * of this product has a use for one. The URL is checked when the request arrives (before rate
 * limits and the session lookup), the parsed body before validation. Registered on the root, so
 * it covers every route and the not-found handler.
 */
export const nulGuard = fp(
  async (app) => {
    // Callback hooks, not async ones: they run on every request and never wait, so no promise.
    app.addHook("onRequest", (request, _reply, done) => {
      done(urlHasNul(request) ? badRequest("nul_character") : undefined);
    });
    app.addHook("preValidation", (request, _reply, done) => {
      done(containsNul(request.body) ? badRequest("nul_character") : undefined);
    });
  },
  { name: "nul-guard" },
);
