import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Reminders and questions (docs/adr/0020):
 * - `reminder_settings`: one row per user (weekly day, hour and IANA time zone; special days as a
 *   JSON list; when the user last unsubscribed);
 * - `reminder_occurrences`: one row per reminder mail due, its primary key (user, kind, local date)
 *   is what makes several instances send each occurrence exactly once;
 * - `question_rotation`: each user's shuffled order through the built-in questions;
 * - `server_secrets`: secrets every instance shares (the key that signs unsubscribe links);
 * - `memories.question`: the question a memory answers.
 */
export const remindersAndQuestions: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("reminder_settings")
      .addColumn("user_id", "text", (c) =>
        c.primaryKey().references("users.id").onDelete("cascade"),
      )
      .addColumn("weekly_enabled", "integer", (c) =>
        c.notNull().check(sql`weekly_enabled in (0, 1)`),
      )
      .addColumn("weekday", "integer", (c) => c.notNull().check(sql`weekday between 0 and 6`))
      .addColumn("hour", "integer", (c) => c.notNull().check(sql`hour between 0 and 23`))
      .addColumn("time_zone", "text", (c) => c.notNull())
      .addColumn("special_days", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("unsubscribed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("reminder_occurrences")
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("occurrence_date", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) =>
        c.notNull().check(sql`status in ('sending', 'sent', 'failed')`),
      )
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("locked_until", "text")
      .addColumn("last_error", "text")
      .addColumn("sent_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("reminder_occurrences_pk", ["user_id", "kind", "occurrence_date"])
      .execute();
    await db.schema
      .createIndex("reminder_occurrences_created_at")
      .on("reminder_occurrences")
      .column("created_at")
      .execute();

    await db.schema
      .createTable("question_rotation")
      .addColumn("user_id", "text", (c) =>
        c.primaryKey().references("users.id").onDelete("cascade"),
      )
      .addColumn("seed", "integer", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull().check(sql`position >= 0`))
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("server_secrets")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();

    await db.schema.alterTable("memories").addColumn("question", "text").execute();
  },
};
