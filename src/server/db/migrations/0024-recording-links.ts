import type { Kysely } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * A storyteller's personal recording link (ADR 0060): only the hash of its token is kept on the
 * member, unique so one lookup finds the member it speaks for; null while the member has none.
 * (SQLite cannot add a column with a unique constraint: the unique index says it on both.)
 */
export const recordingLinks: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("journal_members")
      .addColumn("recording_token_hash", "text")
      .execute();
    await db.schema
      .createIndex("journal_members_recording_token")
      .on("journal_members")
      .column("recording_token_hash")
      .unique()
      .execute();
  },
};
