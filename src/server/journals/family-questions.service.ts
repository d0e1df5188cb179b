import { can, membershipOf } from "../../shared/authorization";
import { formatMessage } from "../../shared/i18n/format";
import type { FamilyQuestion } from "../../shared/schemas";
import type { Identity } from "../auth/session.service";
import type { Executor } from "../db/transactions";
import { conflict, forbidden, notFound, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { newId } from "../ids";
import type { JobsRepo } from "../jobs/jobs.repo";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import type { UsersService } from "../users/users.service";
import type { FamilyQuestionRow, FamilyQuestionsRepo } from "./family-questions.repo";
import type { JournalsRepo } from "./journals.repo";

export const FAMILY_QUESTION_ANSWERED_JOB = "family-question-answered";

function toFamilyQuestion(row: FamilyQuestionRow): FamilyQuestion {
  return {
    id: row.id,
    text: row.text,
    askedBy: row.asked_by_name,
    memoryId: row.memory_id,
    createdAt: row.created_at,
  };
}

export interface FamilyQuestionsDeps {
  repo: FamilyQuestionsRepo;
  journals: Pick<JournalsRepo, "findMember" | "findById">;
  users: Pick<UsersService, "getUser">;
  jobs: Pick<JobsRepo, "enqueue">;
  mailer: Mailer;
  /** The address a mail's link is built on. */
  appUrl: () => string;
  now?: () => Date;
}

/**
 * Questions the family asks a storyteller (ADR 0061): organizers and relatives ask, the
 * storyteller's page shows the oldest one waiting ("Lucas asks: ..."), and once a memory answering
 * it is saved, whoever asked hears of it by mail.
 */
export class FamilyQuestionsService {
  private readonly now: () => Date;

  constructor(private readonly deps: FamilyQuestionsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The storyteller asked, when the caller belongs to their journal (404 otherwise). */
  private async storyteller(identity: Identity, journalId: string, memberId: string) {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
    const member = await this.deps.journals.findMember(journalId, memberId);
    if (!member) throw notFound();
    return member;
  }

  /** POST /api/journals/{id}/members/{memberId}/questions. */
  async ask(
    identity: Identity,
    journalId: string,
    memberId: string,
    text: string,
  ): Promise<FamilyQuestion> {
    const member = await this.storyteller(identity, journalId, memberId);
    if (!can(identity, "journal.ask", { id: journalId })) throw forbidden("question.cannot_ask");
    if (member.role === "relative") throw forbidden("question.not_a_storyteller");
    const asker = membershipOf(identity, journalId);
    const askerRow = asker ? await this.deps.journals.findMember(journalId, asker.memberId) : null;
    const row = await this.deps.repo.insert({
      id: newId(),
      journal_id: journalId,
      member_id: memberId,
      asked_by_member_id: asker?.memberId ?? null,
      asked_by_name: askerRow?.name ?? "",
      text,
      memory_id: null,
      answered_at: null,
      created_at: this.now().toISOString(),
    });
    return toFamilyQuestion(row);
  }

  /** GET /api/journals/{id}/members/{memberId}/questions: waiting ones first, for every member. */
  async list(identity: Identity, journalId: string, memberId: string): Promise<FamilyQuestion[]> {
    await this.storyteller(identity, journalId, memberId);
    return (await this.deps.repo.forMember(memberId)).map(toFamilyQuestion);
  }

  /** DELETE .../questions/{questionId}: an organizer, or whoever asked it. */
  async remove(
    identity: Identity,
    journalId: string,
    memberId: string,
    questionId: string,
  ): Promise<void> {
    await this.storyteller(identity, journalId, memberId);
    const row = await this.deps.repo.findById(questionId);
    if (!row || row.member_id !== memberId) throw notFound();
    const asker = membershipOf(identity, journalId)?.memberId;
    const mayRemove =
      can(identity, "journal.manage", { id: journalId }) ||
      (asker !== undefined && asker === row.asked_by_member_id);
    if (!mayRemove) throw forbidden("journal.not_organizer");
    await this.deps.repo.delete(questionId);
  }

  /**
   * PATCH .../questions/{questionId}: an organizer moves a waiting question to `position` among the
   * waiting ones (0 is asked next); the others keep their order. Answers the list.
   */
  async move(
    identity: Identity,
    journalId: string,
    memberId: string,
    questionId: string,
    position: number,
  ): Promise<FamilyQuestion[]> {
    await this.storyteller(identity, journalId, memberId);
    if (!can(identity, "journal.manage", { id: journalId }))
      throw forbidden("journal.not_organizer");
    const rows = await this.deps.repo.forMember(memberId);
    const moved = rows.find((row) => row.id === questionId);
    if (!moved) throw notFound();
    if (moved.answered_at !== null) throw conflict("question.order_invalid");
    const waiting = rows.filter((row) => row.answered_at === null && row.id !== questionId);
    waiting.splice(Math.min(position, waiting.length), 0, moved);
    const answered = rows.filter((row) => row.answered_at !== null);
    await this.deps.repo.setOrder(
      memberId,
      [...waiting, ...answered].map((row) => row.id),
    );
    return (await this.deps.repo.forMember(memberId)).map(toFamilyQuestion);
  }

  /** The questions these memories answered, by memory id: who asked and what (the news says so). */
  async answeredBy(
    memoryIds: readonly string[],
  ): Promise<Map<string, { askedBy: string; text: string }>> {
    const rows = await this.deps.repo.answeredBy(memoryIds);
    return new Map(
      rows.flatMap((row) =>
        row.memory_id
          ? [[row.memory_id, { askedBy: row.asked_by_name, text: row.text }] as const]
          : [],
      ),
    );
  }

  /** The question a storyteller's page asks next: the first one waiting, and who asked it. */
  async next(memberId: string): Promise<{ text: string; askedBy: string } | undefined> {
    const row = await this.deps.repo.nextFor(memberId);
    return row && { text: row.text, askedBy: row.asked_by_name };
  }

  /** Whether `text` is a question the family is waiting for `memberId` to answer. */
  async isWaiting(memberId: string, text: string): Promise<boolean> {
    return (await this.waiting(memberId, text)) !== undefined;
  }

  /** The question with these words the family is waiting for `memberId` to answer, and who asked. */
  async waiting(
    memberId: string,
    text: string,
  ): Promise<{ text: string; askedBy: string } | undefined> {
    const row = (await this.deps.repo.forMember(memberId)).find(
      (question) => question.answered_at === null && question.text === text,
    );
    return row && { text: row.text, askedBy: row.asked_by_name };
  }

  /**
   * A memory was saved, in the transaction that saves it: the family question it answers (by its
   * words, for its storyteller) is marked answered and whoever asked will be told.
   */
  async memorySaved(
    memory: { id: string; storyteller_id: string | null; question: string | null },
    trx: Executor,
  ): Promise<void> {
    if (!memory.storyteller_id || !memory.question) return;
    const at = this.now().toISOString();
    const answered = await this.deps.repo.answer(
      memory.storyteller_id,
      memory.question,
      memory.id,
      at,
      trx,
    );
    if (answered) {
      await this.deps.jobs.enqueue(
        { kind: FAMILY_QUESTION_ANSWERED_JOB, targetId: answered.id },
        trx,
      );
    }
  }

  /** The job: mails whoever asked (an account with an address) that their question was answered. */
  async tellAsker(questionId: string): Promise<void> {
    const row = await this.deps.repo.findById(questionId);
    if (!row?.memory_id || !row.asked_by_member_id) return;
    const [asker, teller] = await Promise.all([
      this.deps.journals.findMember(row.journal_id, row.asked_by_member_id),
      this.deps.journals.findMember(row.journal_id, row.member_id),
    ]);
    const account = asker?.user_id ? await this.deps.users.getUser(asker.user_id) : null;
    const to = account?.email ?? asker?.email;
    if (!to || !teller || !asker) return;
    // Their account's language, else the one they were invited in, else the journal's.
    const journal = await this.deps.journals.findById(row.journal_id);
    const language = languageOf(account?.language, asker.language, journal?.language);
    const words = wordsIn(language).FAMILY_QUESTION_MAIL;
    const name = mailLine(teller.name);
    await this.deps.mailer.send({
      to,
      subject: formatMessage(words.subject, { teller: name }, language),
      text: [
        formatMessage(words.body, { teller: name, question: mailLine(row.text) }, language),
        words.action,
        "",
        `${this.deps.appUrl().replace(/\/+$/, "")}/memory/${row.memory_id}`,
      ].join("\n"),
    });
  }
}
