import type { FastifyBaseLogger } from "fastify";
import { can } from "../../shared/authorization";
import { formatMessage } from "../../shared/i18n/format";
import { directionOf, type Language } from "../../shared/i18n/languages";
import type { QuestionMailSettings } from "../../shared/schemas";
import type { Identity } from "../auth/session.service";
import { escapeHtml } from "../http/html";
import { forbidden, notFound, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { hashToken } from "../ids";
import type { JobKind } from "../jobs/job-kinds";
import type { JobsRepo } from "../jobs/jobs.repo";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import type { QuestionsService } from "../reminders/questions.service";
import { dueReminders } from "../reminders/reminder-schedule";
import type { SealedBox } from "../secrets/sealed-box";
import type { UsersService } from "../users/users.service";
import type { FamilyQuestionsService } from "./family-questions.service";
import type { JournalRow, JournalsRepo, MemberRow } from "./journals.repo";
import { recordingLinkUrl } from "./recording-links.service";

export const QUESTION_MAIL_JOB = "weekly-question" satisfies JobKind;
/** What a journal that never chose a schedule shows organizers: off, Sunday at 10:00. */
const DEFAULTS = { enabled: false, weekday: 0, hour: 10, timeZone: "UTC" };
const PAGE = 500;

/** The link a mail's button opens: the storyteller's recording page asking `question`. */
export const questionLinkUrl = (base: string, token: string, question: string) =>
  `${recordingLinkUrl(base, token)}?q=${encodeURIComponent(question)}`;

export interface QuestionMailDeps {
  repo: JournalsRepo;
  jobs: Pick<JobsRepo, "enqueueOnce">;
  box: SealedBox;
  users: Pick<UsersService, "getUser">;
  /** The time zone of an account's own weekly reminder, when it saved one. */
  reminderTimeZone: (userId: string) => Promise<string | null>;
  questions: Pick<QuestionsService, "weekly">;
  familyQuestions: Pick<FamilyQuestionsService, "next">;
  mailer: Mailer;
  /** The address the mail's links are built on, given the one the schedule was saved at. */
  linkBase: (remembered: string | null) => string;
  log: Pick<FastifyBaseLogger, "info">;
  now?: () => Date;
}

/**
 * The weekly question by mail (ADR 0064): each storyteller with an address and a link gets the
 * question their link page asks, on the day and hour the journal's organizers chose, in the
 * storyteller's time zone. The schedule is the weekly reminder's (`dueReminders`); each instance
 * queues a job per storyteller and local date, which the jobs table's unique target lets exist
 * once, and whose lease lets one worker send it. A storyteller who stopped the mails, was removed,
 * made a relative, or whose link was stopped gets none.
 */
export class QuestionMailService {
  private readonly now: () => Date;

  constructor(private readonly deps: QuestionMailDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private async managed(identity: Identity, journalId: string): Promise<JournalRow> {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
    if (!can(identity, "journal.manage", { id: journalId }))
      throw forbidden("journal.not_organizer");
    const journal = await this.deps.repo.findById(journalId);
    if (!journal) throw notFound();
    return journal;
  }

  /** GET /api/journals/{id}/question-mail (organizers). */
  async settings(identity: Identity, journalId: string): Promise<QuestionMailSettings> {
    const journal = await this.managed(identity, journalId);
    if (journal.question_mail_weekday === null) {
      return { ...DEFAULTS, timeZone: journal.question_mail_time_zone ?? DEFAULTS.timeZone };
    }
    return {
      enabled: true,
      weekday: Number(journal.question_mail_weekday),
      hour: Number(journal.question_mail_hour),
      timeZone: journal.question_mail_time_zone ?? DEFAULTS.timeZone,
    };
  }

  /** PUT /api/journals/{id}/question-mail (organizers); `origin` is remembered for the links. */
  async save(
    identity: Identity,
    journalId: string,
    body: QuestionMailSettings,
    origin: string,
  ): Promise<QuestionMailSettings> {
    await this.managed(identity, journalId);
    await this.deps.repo.setQuestionMail(
      journalId,
      body.enabled ? { weekday: body.weekday, hour: body.hour, timeZone: body.timeZone } : null,
      this.now().toISOString(),
      origin,
    );
    return this.settings(identity, journalId);
  }

  /** The storyteller's own time zone when known (their reminder's), else the journal's. */
  private async timeZoneOf(member: { user_id: string | null }, journalZone: string) {
    return (member.user_id && (await this.deps.reminderTimeZone(member.user_id))) || journalZone;
  }

  /**
   * The scheduler's task, on every instance: queues the mail of each storyteller whose hour has
   * come on their chosen day and who was not mailed that day; returns how many this call queued.
   */
  async queueDue(now = this.now()): Promise<number> {
    let queued = 0;
    let after = "";
    for (;;) {
      const rows = await this.deps.repo.mailableStorytellers(after, PAGE);
      for (const row of rows) {
        if (row.question_mail_weekday === null || row.question_mail_hour === null) continue;
        const due = dueReminders(
          {
            weeklyEnabled: true,
            weekday: Number(row.question_mail_weekday),
            hour: Number(row.question_mail_hour),
            timeZone: await this.timeZoneOf(row, row.question_mail_time_zone ?? "UTC"),
            specialDays: [],
            updatedAt: new Date(row.question_mail_updated_at ?? 0),
          },
          now,
        );
        const date = due[0]?.date;
        if (!date || row.question_mailed_on === date) continue;
        const targetId = `${row.journal_id}/${row.id}/${date}`;
        if (await this.deps.jobs.enqueueOnce({ kind: QUESTION_MAIL_JOB, targetId })) queued++;
      }
      if (rows.length < PAGE) return queued;
      after = rows[rows.length - 1]?.id ?? after;
    }
  }

  /**
   * The job: mails the storyteller this week's question, unless they can no longer get it (read
   * afresh: removed, made a relative, link stopped or renewed into one, mails stopped, already
   * mailed that day). A failed mail throws, and the queue tries again.
   */
  async send(targetId: string): Promise<void> {
    const [journalId = "", memberId = "", date = ""] = targetId.split("/");
    const [member, journal] = await Promise.all([
      this.deps.repo.findMember(journalId, memberId),
      this.deps.repo.findById(journalId),
    ]);
    if (!member || !journal || !this.mayGetMail(member, journal)) return;
    if (member.question_mailed_on === date || !member.recording_token_sealed) return;
    const account = member.user_id ? await this.deps.users.getUser(member.user_id) : null;
    const to = account?.email ?? member.email;
    if (!to) return;
    const token = await this.deps.box.unseal(member.recording_token_sealed);
    // The link must still be the live one (a sealed copy always sits beside its own hash).
    if (hashToken(token) !== member.recording_token_hash) return;
    // Their account's language, else the one they were added with, else the journal's.
    const language = languageOf(account?.language, member.language, journal.language);
    const words = wordsIn(language);
    const asked = await this.deps.familyQuestions.next(member.id);
    // A built-in question in their language; a family's question as the family wrote it.
    const question =
      asked?.text ?? this.deps.questions.weekly(member.id, this.now(), words.QUESTIONS);
    const base = this.deps.linkBase(journal.question_mail_origin).replace(/\/+$/, "");
    await this.deps.mailer.send(
      this.compose(language, {
        to,
        name: mailLine(member.name),
        journal: mailLine(journal.name),
        asker: asked ? mailLine(asked.askedBy) : null,
        question: mailLine(question),
        record: questionLinkUrl(base, token, question),
        page: recordingLinkUrl(base, token),
        oneClick: `${base}/api/record/${encodeURIComponent(token)}/unsubscribe`,
      }),
    );
    await this.deps.repo.setQuestionMailedOn(member.id, date);
    this.deps.log.info({ questionMail: { journalId, memberId, date } }, "weekly question sent");
  }

  private mayGetMail(member: MemberRow, journal: JournalRow): boolean {
    return (
      member.role === "storyteller" &&
      member.question_mail_stopped_at === null &&
      journal.question_mail_weekday !== null
    );
  }

  /** Whether the link's storyteller gets the mail: for their page's "stop these mails". */
  async stateOf(journalId: string, memberId: string): Promise<"on" | "stopped" | null> {
    const [member, journal] = await Promise.all([
      this.deps.repo.findMember(journalId, memberId),
      this.deps.repo.findById(journalId),
    ]);
    if (!member || !journal || journal.question_mail_weekday === null) return null;
    if (member.role !== "storyteller") return null;
    const account = member.user_id ? await this.deps.users.getUser(member.user_id) : null;
    if (!(account?.email ?? member.email)) return null;
    return member.question_mail_stopped_at ? "stopped" : "on";
  }

  /** The storyteller stops (one click, or their page) or asks again for the mails. */
  async choose(memberId: string, stopped: boolean): Promise<void> {
    await this.deps.repo.setQuestionMailStopped(
      memberId,
      stopped ? this.now().toISOString() : null,
    );
  }

  private compose(
    language: Language,
    mail: {
      to: string;
      name: string;
      journal: string;
      asker: string | null;
      question: string;
      record: string;
      page: string;
      oneClick: string;
    },
  ) {
    const mailWords = wordsIn(language).QUESTION_MAIL;
    const words = {
      subject: formatMessage(mailWords.subject, { journal: mail.journal }, language),
      greeting: formatMessage(mailWords.greeting, { name: mail.name }, language),
      intro: mailWords.intro,
      asker: mail.asker ? formatMessage(mailWords.askedBy, { asker: mail.asker }, language) : null,
      why: formatMessage(mailWords.why, { journal: mail.journal }, language),
    };
    const text = [
      words.greeting,
      "",
      words.intro,
      "",
      ...(words.asker ? [words.asker] : []),
      `  ${mail.question}`,
      "",
      `${mailWords.button}:`,
      mail.record,
      mailWords.howTo,
      "",
      "--",
      words.why,
      formatMessage(mailWords.stop, { url: mail.page }, language),
    ].join("\n");
    const h = escapeHtml;
    const html = [
      `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><body style="margin:0;padding:24px;background:#f5f3ff;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1e293b">`,
      '<div style="max-width:32rem;margin:0 auto;background:#fff;border-radius:16px;padding:24px;font-size:18px;line-height:1.6">',
      `<p>${h(words.greeting)}</p>`,
      `<p>${h(words.intro)}</p>`,
      words.asker ? `<p style="margin-bottom:4px;color:#5b21b6">${h(words.asker)}</p>` : "",
      `<p style="font-size:24px;font-weight:600;margin-top:0">${h(mail.question)}</p>`,
      `<p style="text-align:center;margin:32px 0"><a href="${h(mail.record)}" style="display:inline-block;padding:18px 32px;background:#6d28d9;color:#fff;border-radius:12px;font-size:22px;font-weight:700;text-decoration:none">${h(mailWords.button)}</a></p>`,
      `<p>${h(mailWords.howTo)}</p>`,
      `<p style="font-size:14px;color:#64748b">${h(words.why)} <a href="${h(mail.page)}" style="color:#64748b">${h(mailWords.stopLabel)}</a></p>`,
      "</div></body></html>",
    ].join("");
    return {
      to: mail.to,
      subject: words.subject,
      text,
      html,
      // The recording link is a credential: it stays out of the outbox's log line.
      secret: true,
      headers: {
        "List-Unsubscribe": `<${mail.oneClick}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    };
  }
}
