import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify, { type FastifyPluginAsync } from "fastify";
import fp from "fastify-plugin";

const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // 'self': the MP3 encoder's worker and the installable app's service worker (/sw.js).
      workerSrc: ["'self'", "blob:"],
      manifestSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      mediaSrc: ["'self'", "blob:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", "data:"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet adds with these options, worked out once by asking it on a throwaway app:
 * @fastify/helmet builds its middleware (and parses the policy) anew on every request, which
 * was a tenth of the app's own cost per API request. They depend on nothing in the
 * request, so the same headers serve every response.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const headersOf = async (withHelmet: boolean) => {
    const probe = Fastify({ logger: false });
    if (withHelmet) await probe.register(helmet, options);
    probe.get("/", async () => "");
    try {
      return (await probe.inject("/")).headers;
    } finally {
      await probe.close();
    }
  };
  const [plain, secured] = [await headersOf(false), await headersOf(true)];
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(secured)) {
    if (plain[name] === undefined && typeof value === "string") added[name] = value;
  }
  return added;
}

/** Security headers on every response, with a Content-Security-Policy the web app fits in. */
export const securityHeaders: FastifyPluginAsync = fp(
  async (app) => {
    const headers = await helmetHeaders(HELMET_OPTIONS);
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: "security-headers" },
);
