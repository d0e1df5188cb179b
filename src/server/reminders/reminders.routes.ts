import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  currentQuestionSchema,
  nextQuestionBodySchema,
  reminderSettingsBodySchema,
  reminderSettingsSchema,
  unsubscribeQuerySchema,
} from "../../shared/reminders";
import { okResponseSchema } from "../../shared/schemas";
import { type Config, linkBaseOf } from "../config";
import { security } from "../http/api-security";
import { acceptOneClickForm } from "../http/one-click-form";
import { badRequest, errorResponses } from "../http-errors";
import { requireUser } from "../users/account.routes";
import type { QuestionsService } from "./questions.service";
import type { RemindersService } from "./reminders.service";

export interface RemindersRoutesOptions {
  reminders: RemindersService;
  questions: QuestionsService;
  /** Unsubscribe attempts per client address per minute. */
  unsubscribePerMinute: number;
  /** Without APP_URL, saving remembers the address in use for the mails' links. */
  config: Pick<Config, "APP_URL" | "PORT">;
}

const errors = errorResponses(400, 401, 429);

/**
 * Reminder settings (GET/PUT /api/reminders), the one-click unsubscribe (no login: the link is
 * signed) and the rotating question (GET /api/question, POST /api/question/next).
 */
export const remindersRoutes: FastifyPluginAsyncZod<RemindersRoutesOptions> = async (
  app,
  { reminders, questions, unsubscribePerMinute, config },
) => {
  acceptOneClickForm(app);

  app.get(
    "/reminders",
    {
      schema: {
        operationId: "getReminders",
        security: security.session,
        summary: "The logged-in user's reminder settings",
        response: { 200: reminderSettingsSchema, ...errors },
      },
    },
    async (request) => reminders.get(requireUser(request)),
  );

  app.put(
    "/reminders",
    {
      schema: {
        operationId: "saveReminders",
        security: security.session,
        summary: "Saves the weekly reminder and the special days (and ends an earlier unsubscribe)",
        body: reminderSettingsBodySchema,
        response: { 200: reminderSettingsSchema, ...errors },
      },
    },
    async (request) =>
      reminders.save(requireUser(request), request.body, new Date(), linkBaseOf(config, request)),
  );

  app.post(
    "/reminders/unsubscribe",
    {
      config: { rateLimit: { max: unsubscribePerMinute, timeWindow: "1 minute" } },
      schema: {
        operationId: "unsubscribeFromReminders",
        security: security.none,
        summary:
          "One-click unsubscribe from every reminder mail (RFC 8058); signed link, no login needed",
        querystring: unsubscribeQuerySchema,
        response: { 200: okResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { u, t } = request.query;
      if (!(await reminders.unsubscribe(u, t))) throw badRequest("reminders.unsubscribe_invalid");
      return { ok: true as const };
    },
  );

  app.get(
    "/question",
    {
      schema: {
        operationId: "getCurrentQuestion",
        security: security.session,
        summary: "The logged-in user's current question to answer",
        response: { 200: currentQuestionSchema, ...errors },
      },
    },
    async (request) => questions.current(requireUser(request)),
  );

  app.post(
    "/question/next",
    {
      schema: {
        operationId: "nextQuestion",
        security: security.session,
        summary: "Moves on from the question at `position` (skipped or answered)",
        body: nextQuestionBodySchema,
        response: { 200: currentQuestionSchema, ...errors },
      },
    },
    async (request) => questions.next(requireUser(request), request.body.position),
  );
};
