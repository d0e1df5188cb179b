import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  familyQuestionBodySchema,
  familyQuestionListSchema,
  familyQuestionOrderBodySchema,
  familyQuestionParamsSchema,
  familyQuestionSchema,
  invitationParamsSchema,
  invitationSchema,
  joinedSchema,
  journalListSchema,
  journalMemoriesQuerySchema,
  journalParamsSchema,
  journalSchema,
  journalUpdateBodySchema,
  journalYearsQuerySchema,
  memberCreateBodySchema,
  memberListSchema,
  memberParamsSchema,
  memberSchema,
  memberUpdateBodySchema,
  memoryPageSchema,
  memoryYearsSchema,
} from "../../shared/schemas";
import { type Config, linkBaseOf } from "../config";
import { security } from "../http/api-security";
import { errorResponses } from "../http-errors";
import type { MemoriesService } from "../memories/memories.service";
import type { FamilyQuestionsService } from "./family-questions.service";
import type { JournalsService } from "./journals.service";

const errors = errorResponses(400, 401, 403, 404, 409, 429);

/** A family's journal, its members and invitations (ADR 0057), under /api. */
export const journalsRoutes: FastifyPluginAsyncZod<{
  journals: JournalsService;
  questions: FamilyQuestionsService;
  memories: MemoriesService;
  config: Pick<Config, "APP_URL" | "PORT" | "RATE_LIMIT_SHARE_LINKS_PER_HOUR">;
}> = async (app, { journals, questions, memories, config }) => {
  app.get(
    "/journals",
    {
      schema: {
        operationId: "listJournals",
        security: security.session,
        summary: "The logged-in person's journals with their role in each, their own first",
        response: { 200: journalListSchema, ...errors },
      },
    },
    async (request) => journals.list(request.identity),
  );

  app.patch(
    "/journals/:id",
    {
      schema: {
        operationId: "renameJournal",
        security: security.session,
        summary: "Renames a journal or changes its language (organizers)",
        description:
          "`language` is what the journal's book, backup page and questions are written in, and what its storytellers' link pages speak unless a storyteller chose their own.",
        params: journalParamsSchema,
        body: journalUpdateBodySchema,
        response: { 200: journalSchema, ...errors },
      },
    },
    async (request) => journals.update(request.identity, request.params.id, request.body),
  );

  app.get(
    "/journals/:id/members",
    {
      schema: {
        operationId: "listJournalMembers",
        security: security.session,
        summary: "A journal's members; organizers also see emails and pending invitations",
        params: journalParamsSchema,
        response: { 200: memberListSchema, ...errors },
      },
    },
    async (request) => journals.members(request.identity, request.params.id),
  );

  app.post(
    "/journals/:id/members",
    {
      config: {
        // An email sends an invitation: bounded per account like share links' mails.
        rateLimit: {
          max: config.RATE_LIMIT_SHARE_LINKS_PER_HOUR,
          timeWindow: "1 hour",
          keyGenerator: (request) => `journal-member-add:${request.identity.userId ?? request.ip}`,
        },
      },
      schema: {
        operationId: "addJournalMember",
        security: security.session,
        summary:
          "Adds a member (organizers); an email sends an invitation that works once, for 7 days",
        description:
          "Without `email`, the member is a storyteller who records through their own link and has no account.",
        params: journalParamsSchema,
        body: memberCreateBodySchema,
        response: { 201: memberSchema, ...errors },
      },
    },
    async (request, reply) => {
      const member = await journals.addMember(
        request.identity,
        request.params.id,
        request.body,
        linkBaseOf(config, request),
      );
      return reply.code(201).send(member);
    },
  );

  app.patch(
    "/journals/:id/members/:memberId",
    {
      schema: {
        operationId: "changeJournalMemberRole",
        security: security.session,
        summary: "Changes a member's role (organizers); the last organizer keeps theirs",
        params: memberParamsSchema,
        body: memberUpdateBodySchema,
        response: { 200: memberSchema, ...errors },
      },
    },
    async (request) =>
      journals.changeRole(
        request.identity,
        request.params.id,
        request.params.memberId,
        request.body,
      ),
  );

  app.delete(
    "/journals/:id/members/:memberId",
    {
      schema: {
        operationId: "removeJournalMember",
        security: security.session,
        summary:
          "Removes a member (organizers) or leaves (oneself); their access ends at once, their stories stay",
        params: memberParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await journals.removeMember(request.identity, request.params.id, request.params.memberId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/journals/:id/memories",
    {
      schema: {
        operationId: "listJournalMemories",
        security: security.session,
        summary:
          "A journal's memories, newest recorded first, or those matching `q`; one storyteller's with `storyteller`",
        params: journalParamsSchema,
        querystring: journalMemoriesQuerySchema,
        response: { 200: memoryPageSchema, ...errors },
      },
    },
    async (request) => {
      journals.assertView(request.identity, request.params.id);
      return memories.listJournal(request.params.id, request.query);
    },
  );

  app.get(
    "/journals/:id/years",
    {
      schema: {
        operationId: "listJournalYears",
        security: security.session,
        summary:
          "The years that hold a journal's memories (or one storyteller's), for the year navigator",
        params: journalParamsSchema,
        querystring: journalYearsQuerySchema,
        response: { 200: memoryYearsSchema, ...errors },
      },
    },
    async (request) => {
      journals.assertView(request.identity, request.params.id);
      return memories.yearsOfJournal(request.params.id, request.query.storyteller);
    },
  );

  app.get(
    "/journals/:id/members/:memberId/questions",
    {
      schema: {
        operationId: "listFamilyQuestions",
        security: security.session,
        summary: "The questions the family asked a storyteller, those waiting first",
        params: memberParamsSchema,
        response: { 200: familyQuestionListSchema, ...errors },
      },
    },
    async (request) => questions.list(request.identity, request.params.id, request.params.memberId),
  );

  app.post(
    "/journals/:id/members/:memberId/questions",
    {
      schema: {
        operationId: "askFamilyQuestion",
        security: security.session,
        summary:
          "Asks a storyteller a question (organizers and relatives); their page asks the oldest one waiting, and the memory recorded for it carries it as its question",
        params: memberParamsSchema,
        body: familyQuestionBodySchema,
        response: { 201: familyQuestionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { id, memberId } = request.params;
      const asked = await questions.ask(request.identity, id, memberId, request.body.text);
      return reply.code(201).send(asked);
    },
  );

  app.delete(
    "/journals/:id/members/:memberId/questions/:questionId",
    {
      schema: {
        operationId: "removeFamilyQuestion",
        security: security.session,
        summary: "Removes a question (organizers, or whoever asked it)",
        params: familyQuestionParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { id, memberId, questionId } = request.params;
      await questions.remove(request.identity, id, memberId, questionId);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    "/journals/:id/members/:memberId/questions/:questionId",
    {
      schema: {
        operationId: "moveFamilyQuestion",
        security: security.session,
        summary:
          "Moves a waiting question among the storyteller's waiting ones (organizers); the first is asked next",
        description:
          "`position` 0 puts it first: the storyteller's recording page asks it next. A position past the end puts it last. Answers the storyteller's questions in their new order; 409 for an answered question.",
        params: familyQuestionParamsSchema,
        body: familyQuestionOrderBodySchema,
        response: { 200: familyQuestionListSchema, ...errors },
      },
    },
    async (request) => {
      const { id, memberId, questionId } = request.params;
      return questions.move(request.identity, id, memberId, questionId, request.body.position);
    },
  );

  app.get(
    "/invitations/:token",
    {
      schema: {
        operationId: "getInvitation",
        security: security.none,
        summary: "What an invitation offers: the journal's name, the invited name and role",
        params: invitationParamsSchema,
        response: { 200: invitationSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return journals.invitation(request.params.token);
    },
  );

  app.post(
    "/invitations/:token",
    {
      schema: {
        operationId: "acceptInvitation",
        security: security.session,
        summary:
          "Joins the invitation's journal with the logged-in account; the link then works no more",
        params: invitationParamsSchema,
        response: { 200: joinedSchema, ...errors },
      },
    },
    async (request) => journals.join(request.identity, request.params.token),
  );
};
