import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { formatMessage } from "../../shared/i18n/format";
import { specialDayQuestion } from "../../shared/questions";
import {
  type ReminderSettings,
  type ReminderSettingsBody,
  type SpecialDay,
  specialDaySchema,
} from "../../shared/reminders";
import { badRequest } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import { cachedSecret, type ServerSecretsRepo } from "../secrets/server-secrets.repo";
import type { UsersService } from "../users/users.service";
import type { QuestionsService } from "./questions.service";
import { type DueReminder, dueReminders } from "./reminder-schedule";
import type { OccurrenceKey, ReminderSettingsRow, RemindersRepo } from "./reminders.repo";

/** What a user who never saved reminders sees: all off, Sunday at 18:00. */
const DEFAULTS = { enabled: false, weekday: 0, hour: 18, timeZone: "UTC" };
/** A sender that dies mid-mail leaves its claim; another instance takes it after this. */
const SEND_LOCK_MS = 5 * 60_000;
const SECRET_NAME = "unsubscribe-links";

/** How long an unsubscribe link works: reminder mails are weekly, so a link is always recent. */
const UNSUBSCRIBE_LINK_DAYS = 90;
const PAGE = 500;

function parseSpecialDays(text: string): SpecialDay[] {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item) => {
      const parsed = specialDaySchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

/** Where the mail's links point back at the app. */
export interface RemindersOptions {
  /**
   * The address for one user's mail, given the one they last saved their reminders at (null when
   * never remembered): APP_URL when set, else that one, else the configured address.
   */
  linkBase: (remembered: string | null) => string;
}

/**
 * Reminder settings, the schedule's sending (exactly once per occurrence, whichever instance gets
 * there first; docs/adr/0020) and the signed one-click unsubscribe.
 */
export class RemindersService {
  private readonly key: () => Promise<Buffer>;

  constructor(
    private readonly repo: RemindersRepo,
    private readonly deps: {
      secrets: ServerSecretsRepo;
      users: UsersService;
      questions: QuestionsService;
      mailer: Mailer;
      log: Pick<FastifyBaseLogger, "info" | "error">;
    },
    private readonly options: RemindersOptions,
  ) {
    this.key = cachedSecret(deps.secrets, SECRET_NAME);
  }

  async get(userId: string): Promise<ReminderSettings> {
    const [row, user] = await Promise.all([
      this.repo.find(userId),
      this.deps.users.getUser(userId),
    ]);
    return this.toSettings(row, Boolean(user?.email));
  }

  /** Saves the settings; `origin`, the address they were saved at, is remembered for the mails. */
  async save(
    userId: string,
    body: ReminderSettingsBody,
    now = new Date(),
    origin?: string,
  ): Promise<ReminderSettings> {
    // Two special days of the same name would be one reminder: the name says which day it is.
    const labels = new Set<string>();
    for (const [index, day] of body.specialDays.entries()) {
      const key = day.label.toLowerCase();
      if (labels.has(key)) {
        throw badRequest(
          "reminders.special_day_twice",
          undefined,
          `body.specialDays.${index}.label`,
        );
      }
      labels.add(key);
    }
    await this.repo.upsert(
      userId,
      {
        weeklyEnabled: body.weekly.enabled,
        weekday: body.weekly.weekday,
        hour: body.weekly.hour,
        timeZone: body.weekly.timeZone,
        specialDays: JSON.stringify(body.specialDays),
        origin,
      },
      now,
    );
    return this.get(userId);
  }

  private toSettings(row: ReminderSettingsRow | undefined, hasEmail: boolean): ReminderSettings {
    if (!row) {
      return {
        weekly: { ...DEFAULTS },
        specialDays: [],
        hasEmail,
        saved: false,
        unsubscribedAt: null,
      };
    }
    return {
      weekly: {
        enabled: Number(row.weekly_enabled) === 1,
        weekday: Number(row.weekday),
        hour: Number(row.hour),
        timeZone: row.time_zone,
      },
      specialDays: parseSpecialDays(row.special_days),
      hasEmail,
      saved: true,
      unsubscribedAt: row.unsubscribed_at,
    };
  }

  /** Housekeeping: occurrence rows made before `before` (long past their day). */
  sweepOccurrences(before: Date): Promise<number> {
    return this.repo.deleteOccurrencesBefore(before);
  }

  // ---- Unsubscribe ------------------------------------------------------------------------

  /**
   * The signature in a user's unsubscribe link: when it was made, and HMAC-SHA256 of the user id
   * and that time with a server secret, as `<time in base 36>.<hmac>`.
   */
  async unsubscribeToken(userId: string, issuedAt = new Date()): Promise<string> {
    const issued = issuedAt.getTime().toString(36);
    return `${issued}.${await this.sign(userId, issued)}`;
  }

  private async sign(userId: string, issued: string): Promise<string> {
    return createHmac("sha256", await this.key())
      .update(`unsubscribe:${userId}:${issued}`)
      .digest("base64url");
  }

  /** The page a person opens from the mail, and the address mail providers POST to (RFC 8058). */
  async unsubscribeLinks(
    userId: string,
    base = this.base(null),
  ): Promise<{ page: string; oneClick: string }> {
    const query = `u=${encodeURIComponent(userId)}&t=${await this.unsubscribeToken(userId)}`;
    return {
      page: `${base}/unsubscribe?${query}`,
      oneClick: `${base}/api/reminders/unsubscribe?${query}`,
    };
  }

  /**
   * Stops every reminder mail of the user the link was made for. False for a wrong signature, a
   * link older than UNSUBSCRIBE_LINK_DAYS, or one made before the user last saved the settings
   * (chose reminders again): an old mail cannot undo that choice. Again once unsubscribed: true.
   */
  async unsubscribe(userId: string, token: string, now = new Date()): Promise<boolean> {
    const [issued = "", signature = ""] = token.split(".");
    const expected = Buffer.from(await this.sign(userId, issued));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const issuedAt = Number.parseInt(issued, 36);
    if (!(now.getTime() - issuedAt < UNSUBSCRIBE_LINK_DAYS * 86_400_000)) return false;
    const row = await this.repo.find(userId);
    if (!row) return false;
    if (row.unsubscribed_at) return true;
    if (issuedAt <= Date.parse(row.updated_at)) return false;
    await this.repo.unsubscribe(userId, now);
    return true;
  }

  // ---- Sending ----------------------------------------------------------------------------

  /**
   * Sends every reminder due at `now` that no instance has sent yet; returns how many were sent.
   * Safe to run on several instances at once: each occurrence is claimed in the database first.
   */
  async sendDue(now = new Date()): Promise<number> {
    let sent = 0;
    let after = "";
    for (;;) {
      const rows = await this.repo.listActive(after, PAGE);
      for (const row of rows) {
        const settings = this.toSettings(row, true);
        const due = dueReminders(
          {
            weeklyEnabled: settings.weekly.enabled,
            weekday: settings.weekly.weekday,
            hour: settings.weekly.hour,
            timeZone: settings.weekly.timeZone,
            specialDays: settings.specialDays,
            updatedAt: new Date(row.updated_at),
          },
          now,
        );
        for (const reminder of due) {
          if (await this.sendOne(row.user_id, reminder, now, this.base(row.origin))) sent++;
        }
      }
      if (rows.length < PAGE) return sent;
      after = rows[rows.length - 1]?.user_id ?? after;
    }
  }

  private async sendOne(
    userId: string,
    reminder: DueReminder,
    now: Date,
    base: string,
  ): Promise<boolean> {
    const user = await this.deps.users.getUser(userId);
    if (!user?.email) return false;
    const key: OccurrenceKey = { userId, kind: reminder.kind, date: reminder.date };
    if (!(await this.repo.claim(key, now, new Date(now.getTime() + SEND_LOCK_MS)))) return false;
    try {
      // In the account's language; an account that never chose one (null) reads English.
      const language = languageOf(user.language);
      const catalogues = wordsIn(language);
      const words = catalogues.REMINDER_MAIL;
      const question = reminder.specialDay
        ? specialDayQuestion(reminder.specialDay.label, catalogues.SPECIAL_DAY_QUESTIONS, language)
        : (await this.deps.questions.current(userId, catalogues.QUESTIONS)).question;
      const record = `${base}/?question=${encodeURIComponent(question)}`;
      const unsubscribe = await this.unsubscribeLinks(userId, base);
      const name = mailLine(user.displayName || user.username);
      const day = mailLine(reminder.specialDay?.label ?? "");
      await this.deps.mailer.send({
        to: user.email,
        subject: reminder.specialDay
          ? formatMessage(words.subjectSpecialDay, { day }, language)
          : words.subjectWeekly,
        text: [
          formatMessage(words.greeting, { name }, language),
          "",
          reminder.specialDay
            ? formatMessage(words.introSpecialDay, { day }, language)
            : words.introWeekly,
          "",
          `  ${mailLine(question)}`,
          "",
          words.record,
          record,
          "",
          "--",
          words.why,
          formatMessage(words.stop, { url: unsubscribe.page }, language),
        ].join("\n"),
        // The signed unsubscribe link stays out of the outbox's log line.
        secret: true,
        headers: {
          "List-Unsubscribe": `<${unsubscribe.oneClick}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      await this.repo.markSent(key, new Date());
      this.deps.log.info(
        { reminder: { userId, kind: reminder.kind, date: reminder.date } },
        "reminder sent",
      );
      return true;
    } catch (error) {
      await this.repo.markFailed(key, error instanceof Error ? error.message : String(error));
      this.deps.log.error({ err: error, reminder: key }, "reminder mail failed");
      return false;
    }
  }

  private base(remembered: string | null): string {
    return this.options.linkBase(remembered).replace(/\/+$/, "");
  }
}
