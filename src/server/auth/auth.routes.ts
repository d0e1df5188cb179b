import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  errorResponseSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  okResponseSchema,
  registerBodySchema,
  resetPasswordBodySchema,
  userSchema,
} from "../../shared/schemas";
import { type Config, publicAppUrl } from "../config";
import { security } from "../http/api-security";
import { errorResponses, tooManyRequests, unauthorized } from "../http-errors";
import type { UsersService } from "../users/users.service";
import type { AuthService } from "./auth.service";
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from "./session.service";

export interface AuthRoutesOptions {
  auth: AuthService;
  users: UsersService;
  config: Config;
}

const errors = errorResponses(400, 401, 429);

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { auth, users, config },
) => {
  // Per client IP, per route.
  const perIp = { max: config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: "1 minute" };
  /**
   * Limits on the account a request names (a username or an email). Per account and address, at
   * the per-IP pace, so wrong guesses from one address do not refuse the owner elsewhere; and per
   * account from every address together, a larger hourly ceiling, so an attacker cycling addresses
   * is still bounded (reaching it refuses that account everywhere until its hour ends).
   */
  const perAccount = (name: string, key: (body: Record<string, unknown>) => unknown) => {
    const account = (request: FastifyRequest) =>
      String(key((request.body ?? {}) as Record<string, unknown>) ?? "").toLowerCase();
    const checks = [
      app.createRateLimit({
        ...perIp,
        keyGenerator: (request) => `account-ip:${name}:${request.ip}:${account(request)}`,
      }),
      app.createRateLimit({
        max: config.RATE_LIMIT_AUTH_PER_ACCOUNT_PER_HOUR,
        timeWindow: "1 hour",
        keyGenerator: (request) => `account-hour:${name}:${account(request)}`,
      }),
    ];
    return async (request: FastifyRequest, reply: FastifyReply) => {
      // In order, so an address refused for this account adds nothing to its hourly count.
      for (const check of checks) {
        const limit = await check(request);
        if (!limit.isAllowed && limit.isExceeded) {
          reply.header("retry-after", limit.ttlInSeconds);
          throw tooManyRequests();
        }
      }
    };
  };
  /** Route options limiting a request per client IP and per the account its body names. */
  const limitedPerIpAndAccount = (
    name: string,
    key: (body: Record<string, unknown>) => unknown,
  ) => ({
    config: { rateLimit: perIp },
    preHandler: perAccount(name, key),
  });

  app.get(
    "/user",
    {
      schema: {
        operationId: "getCurrentUser",
        security: security.session,
        summary: "The logged-in user; 401 when logged out",
        response: { 200: userSchema, 401: errorResponseSchema },
      },
    },
    async (request) => {
      const userId = request.identity.userId;
      const user = userId ? await users.getUser(userId) : null;
      if (!user) throw unauthorized();
      return user;
    },
  );

  app.post(
    "/register",
    {
      config: { rateLimit: perIp },
      schema: {
        operationId: "register",
        security: security.none,
        summary: "Creates an account and logs it in",
        body: registerBodySchema,
        response: { 201: userSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user, token, expiresAt } = await auth.register(request.body);
      // A session the browser held before (another account) ends: this one is new.
      await auth.logout(request.cookies[SESSION_COOKIE]);
      setSessionCookie(request, reply, config, { token, expiresAt });
      return reply.code(201).send(user);
    },
  );

  app.post(
    "/login",
    {
      ...limitedPerIpAndAccount("login", (body) => body.username),
      schema: {
        operationId: "logIn",
        security: security.none,
        summary: "Logs in with username and password",
        body: loginBodySchema,
        response: { 200: userSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user, token, expiresAt } = await auth.login(
        request.body.username,
        request.body.password,
      );
      await auth.logout(request.cookies[SESSION_COOKIE]);
      setSessionCookie(request, reply, config, { token, expiresAt });
      return user;
    },
  );

  app.post(
    "/logout",
    {
      schema: {
        operationId: "logOut",
        security: security.optionalSession,
        summary: "Ends this session on the server",
        response: { 200: okResponseSchema },
      },
    },
    async (request, reply) => {
      await auth.logout(request.cookies[SESSION_COOKIE]);
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  );

  app.post(
    "/forgot-password",
    {
      ...limitedPerIpAndAccount("forgot-password", (body) => body.email),
      schema: {
        operationId: "requestPasswordReset",
        security: security.none,
        summary: "Mails a reset link when an account uses this email; the answer never tells",
        body: forgotPasswordBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      auth.requestPasswordReset(request.body.email, publicAppUrl(config));
      return { ok: true as const };
    },
  );

  app.post(
    "/reset-password",
    {
      config: { rateLimit: perIp },
      schema: {
        operationId: "resetPassword",
        security: security.none,
        summary: "Sets a new password with a reset token and ends every session of the account",
        body: resetPasswordBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await auth.resetPassword(request.body.token, request.body.password);
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  );
};
