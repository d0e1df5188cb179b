import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  changePasswordBodySchema,
  deleteAccountBodySchema,
  errorResponseSchema,
  okResponseSchema,
  updateAccountBodySchema,
  userSchema,
} from "../../shared/schemas";
import { clearSessionCookie, setSessionCookie } from "../auth/session.service";
import type { Config } from "../config";
import { security } from "../http/api-security";
import { errorResponses, tooManyRequests, unauthorized } from "../http-errors";
import type { AccountService } from "./account.service";

export interface AccountRoutesOptions {
  account: AccountService;
  config: Config;
}

const errors = errorResponses(400, 401, 429);

/** The logged-in user's id, or 401 (a share link never logs anyone in). */
export function requireUser(request: FastifyRequest): string {
  const userId = request.identity.userId;
  if (!userId) throw unauthorized();
  return userId;
}

/** The account page's API: PATCH, DELETE /api/user and POST /api/user/password. */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (
  app,
  { account, config },
) => {
  // Guessing the current password is limited like logging in (auth.routes.ts): per client IP, and
  // per account at the same pace plus an hourly ceiling, so a stolen session cannot try many.
  const perIp = { max: config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: "1 minute" };
  const perAccount = [
    app.createRateLimit({
      ...perIp,
      keyGenerator: (request) => `password-change:${request.identity.userId}`,
    }),
    app.createRateLimit({
      max: config.RATE_LIMIT_AUTH_PER_ACCOUNT_PER_HOUR,
      timeWindow: "1 hour",
      keyGenerator: (request) => `password-change-hour:${request.identity.userId}`,
    }),
  ];
  const limitPerAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    requireUser(request);
    for (const check of perAccount) {
      const limit = await check(request);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header("retry-after", limit.ttlInSeconds);
        throw tooManyRequests();
      }
    }
  };

  app.patch(
    "/user",
    {
      config: { rateLimit: perIp },
      // Only a change of email checks the password, so only it counts against the guesses.
      preHandler: async (request, reply) => {
        if ((request.body as { email?: unknown }).email !== undefined) {
          await limitPerAccount(request, reply);
        }
      },
      schema: {
        operationId: "updateCurrentUser",
        security: security.session,
        summary:
          "Changes the logged-in user's display name and/or email (a new email needs currentPassword; 409 when another account uses it)",
        body: updateAccountBodySchema,
        response: { 200: userSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (request) => account.update(requireUser(request), request.body),
  );

  app.post(
    "/user/password",
    {
      config: { rateLimit: perIp },
      preHandler: limitPerAccount,
      schema: {
        operationId: "changePassword",
        security: security.session,
        summary:
          "Changes the password with the current one; every other session ends, this browser gets a new one",
        body: changePasswordBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await account.changePassword(
        requireUser(request),
        request.body.currentPassword,
        request.body.newPassword,
      );
      setSessionCookie(request, reply, config, session);
      return { ok: true as const };
    },
  );

  app.delete(
    "/user",
    {
      config: { rateLimit: perIp },
      preHandler: limitPerAccount,
      schema: {
        operationId: "deleteCurrentUser",
        security: security.session,
        summary:
          "Deletes the account with its memories, their comments, all their audio and its sessions (needs the typed word and currentPassword)",
        body: deleteAccountBodySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await account.deleteAccount(
        requireUser(request),
        request.body.confirm,
        request.body.currentPassword,
      );
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  );
};
