import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * The weekly question by mail (ADR 0064):
 * - `journal_members.recording_token_sealed`: the recording link's token sealed with a server
 *   secret, beside its hash, so a card can be printed again and a mail can carry the link; a link
 *   made before has a hash and no sealed copy. Never a sealed copy without a hash.
 * - `journal_members.question_mail_stopped_at`: the storyteller stopped the mails (one click);
 *   `question_mailed_on`: the storyteller's local date of the last mail sent.
 * - `journals.question_mail_*`: the day (0 Sunday to 6) and hour the organizers chose, with the
 *   time zone they chose it in; all null while the journal sends none. `question_mail_origin`
 *   is the address they chose it at: without APP_URL, the mail's links are built on it.
 * (SQLite adds no table constraint to an existing table: each column's check says it.)
 */
export const weeklyQuestionMail: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("journal_members")
      .addColumn("recording_token_sealed", "text", (c) =>
        c.check(sql`recording_token_sealed is null or recording_token_hash is not null`),
      )
      .execute();
    await db.schema
      .alterTable("journal_members")
      .addColumn("question_mail_stopped_at", "text")
      .execute();
    await db.schema.alterTable("journal_members").addColumn("question_mailed_on", "text").execute();
    await db.schema
      .alterTable("journals")
      .addColumn("question_mail_weekday", "integer", (c) =>
        c.check(sql`question_mail_weekday between 0 and 6`),
      )
      .execute();
    await db.schema
      .alterTable("journals")
      .addColumn("question_mail_hour", "integer", (c) =>
        c.check(
          sql`(question_mail_hour is null) = (question_mail_weekday is null) and question_mail_hour between 0 and 23`,
        ),
      )
      .execute();
    await db.schema
      .alterTable("journals")
      .addColumn("question_mail_time_zone", "text", (c) =>
        c.check(sql`(question_mail_time_zone is null) = (question_mail_weekday is null)`),
      )
      .execute();
    await db.schema.alterTable("journals").addColumn("question_mail_updated_at", "text").execute();
    await db.schema.alterTable("journals").addColumn("question_mail_origin", "text").execute();
  },
};
