import type { Kysely } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Reminder settings remember the address the owner saved them at (`origin`, e.g.
 * `http://192.168.1.20:5202`): without APP_URL, reminder mails' links are built on it, as relatives'
 * news is on a share link's (0021). Settings saved before have none and use the configured address.
 */
export const reminderOrigins: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("reminder_settings").addColumn("origin", "text").execute();
  },
};
