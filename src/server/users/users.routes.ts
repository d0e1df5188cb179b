import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  errorResponseSchema,
  publicProfileSchema,
  sharedWithMeSchema,
  userSchema,
  visibilityBodySchema,
} from "../../shared/schemas";
import { security } from "../http/api-security";
import { notFound, unauthorized } from "../http-errors";
import type { UsersService } from "./users.service";

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (
  app,
  { users },
) => {
  app.post(
    "/user/visibility",
    {
      schema: {
        operationId: "setProfileVisibility",
        security: security.session,
        summary: "Makes the logged-in user's profile public or private",
        body: visibilityBodySchema,
        response: { 200: userSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => {
      const userId = request.identity.userId;
      const user = userId ? await users.setVisibility(userId, request.body.isPublic) : null;
      if (!user) throw unauthorized();
      return user;
    },
  );

  app.get(
    "/users/:username",
    {
      schema: {
        operationId: "getProfile",
        security: security.optionalSession,
        summary: "A profile; 404 when it does not exist or is private to the viewer",
        params: z.object({ username: z.string().min(1).max(200) }),
        response: { 200: publicProfileSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const profile = await users.getVisibleProfile(request.params.username, request.identity);
      if (!profile) throw notFound("profile.not_found");
      return profile;
    },
  );

  app.get(
    "/shared-with-me",
    {
      schema: {
        operationId: "getSharedWithMe",
        security: security.optionalSession,
        summary: "Whose memories this browser's share links open (a relative's greeting)",
        response: { 200: sharedWithMeSchema },
      },
    },
    async (request) => users.sharedWith(request.identity),
  );
};
