import type { FastifyInstance } from "fastify";

/**
 * RFC 8058: mail providers POST `List-Unsubscribe=One-Click` as a form to a mail's one-click
 * unsubscribe address. Registered in the scope of the routes that take it (the link says who).
 */
export function acceptOneClickForm(app: FastifyInstance): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}
