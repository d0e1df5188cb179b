import type { Kysely, Selectable } from "kysely";
import type { Database, ReminderSettingsTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type ReminderSettingsRow = Selectable<ReminderSettingsTable>;

export interface ReminderSettingsValues {
  weeklyEnabled: boolean;
  weekday: number;
  hour: number;
  timeZone: string;
  /** JSON text of the special days. */
  specialDays: string;
  /** The address they are saved at (left as it was when not given). */
  origin?: string | undefined;
}

/** A reminder whose mail keeps failing is tried this often (once per check) on its day. */
export const MAX_SEND_ATTEMPTS = 5;

/** One reminder mail due: the user, 'weekly' or 'special:<label>', and the user's local date. */
export interface OccurrenceKey {
  userId: string;
  kind: string;
  date: string;
}

/** The only code that reads or writes `reminder_settings` and `reminder_occurrences`. */
export class RemindersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async find(userId: string, ex: Executor = this.db): Promise<ReminderSettingsRow | undefined> {
    return ex
      .selectFrom("reminder_settings")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  /** Saves the settings; saving clears an earlier unsubscribe (the user chose reminders again). */
  async upsert(userId: string, values: ReminderSettingsValues, now: Date): Promise<void> {
    const row = {
      weekly_enabled: values.weeklyEnabled ? 1 : 0,
      weekday: values.weekday,
      hour: values.hour,
      time_zone: values.timeZone,
      special_days: values.specialDays,
      unsubscribed_at: null,
      updated_at: now.toISOString(),
      ...(values.origin !== undefined ? { origin: values.origin } : {}),
    };
    await this.db
      .insertInto("reminder_settings")
      .values({ user_id: userId, ...row, created_at: now.toISOString() })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(row))
      .execute();
  }

  /** Stops every reminder mail of the user; false when the user has no settings. */
  async unsubscribe(userId: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable("reminder_settings")
      .set({ unsubscribed_at: now.toISOString(), updated_at: now.toISOString() })
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Settings that may produce a mail: not unsubscribed, weekly on or some special day. */
  async listActive(afterUserId: string, limit: number): Promise<ReminderSettingsRow[]> {
    return this.db
      .selectFrom("reminder_settings")
      .selectAll()
      .where("unsubscribed_at", "is", null)
      .where((eb) => eb.or([eb("weekly_enabled", "=", 1), eb("special_days", "!=", "[]")]))
      .where("user_id", ">", afterUserId)
      .orderBy("user_id")
      .limit(limit)
      .execute();
  }

  /**
   * Claims an occurrence for sending until `lockedUntil`: the first claim inserts the row (the
   * primary key lets one instance win); later claims succeed only for a failed attempt or a claim
   * whose sender died (its lock ran out). Never for one that was sent.
   */
  async claim(key: OccurrenceKey, now: Date, lockedUntil: Date): Promise<boolean> {
    const inserted = await this.db
      .insertInto("reminder_occurrences")
      .values({
        user_id: key.userId,
        kind: key.kind,
        occurrence_date: key.date,
        status: "sending",
        attempts: 1,
        locked_until: lockedUntil.toISOString(),
        last_error: null,
        sent_at: null,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(["user_id", "kind", "occurrence_date"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
    const retaken = await this.db
      .updateTable("reminder_occurrences")
      .set((eb) => ({
        status: "sending",
        attempts: eb("attempts", "+", 1),
        locked_until: lockedUntil.toISOString(),
      }))
      .where("user_id", "=", key.userId)
      .where("kind", "=", key.kind)
      .where("occurrence_date", "=", key.date)
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "failed"), eb("attempts", "<", MAX_SEND_ATTEMPTS)]),
          eb.and([eb("status", "=", "sending"), eb("locked_until", "<", now.toISOString())]),
        ]),
      )
      .executeTakeFirst();
    return Number(retaken.numUpdatedRows) > 0;
  }

  async markSent(key: OccurrenceKey, now: Date): Promise<void> {
    await this.db
      .updateTable("reminder_occurrences")
      .set({ status: "sent", sent_at: now.toISOString(), locked_until: null, last_error: null })
      .where("user_id", "=", key.userId)
      .where("kind", "=", key.kind)
      .where("occurrence_date", "=", key.date)
      .execute();
  }

  async markFailed(key: OccurrenceKey, error: string): Promise<void> {
    await this.db
      .updateTable("reminder_occurrences")
      .set({ status: "failed", locked_until: null, last_error: error.slice(0, 500) })
      .where("user_id", "=", key.userId)
      .where("kind", "=", key.kind)
      .where("occurrence_date", "=", key.date)
      .execute();
  }

  /** Housekeeping: occurrences older than `before` are no longer needed to avoid a repeat. */
  async deleteOccurrencesBefore(before: Date): Promise<number> {
    const result = await this.db
      .deleteFrom("reminder_occurrences")
      .where("created_at", "<", before.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Tests and the scheduler's report: the occurrences of one user. */
  async occurrencesOf(userId: string) {
    return this.db
      .selectFrom("reminder_occurrences")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("occurrence_date")
      .orderBy("kind")
      .execute();
  }
}
