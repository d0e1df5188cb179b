import { createHash, timingSafeEqual } from "node:crypto";
import fp from "fastify-plugin";
import { errorBody } from "../http-errors";
import { type Metrics, UNMATCHED_ROUTE } from "../metrics/metrics";

/** The path Prometheus scrapes (outside /api: no session, no cross-site guard). */
export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` in Prometheus format, and the request counts and durations behind it. Registered
 * only when METRICS_TOKEN is set (otherwise there is no route: 404, and no per-request work);
 * then every scrape must carry it as `Authorization: Bearer <token>`, compared in constant time.
 */
export const metricsPlugin = fp<{ metrics: Metrics; token: string }>(
  async (app, { metrics, token }) => {
    // Labelled by the route's pattern (`/api/memories/:id`), never the URL: bounded, and no ids.
    // A callback hook, not an async one: no promise per request.
    app.addHook("onResponse", (request, reply, done) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    const expected = digest(token);
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const given = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
      // Digests of equal length, so timingSafeEqual reveals neither the token nor its length.
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        return reply
          .code(401)
          .header("www-authenticate", 'Bearer realm="metrics"')
          .send(errorBody("metrics_token_required"));
      }
      const { contentType, body } = await metrics.render();
      return reply.header("cache-control", "no-store").type(contentType).send(body);
    });
  },
  { name: "metrics" },
);

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
