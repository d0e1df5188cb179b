import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * The language a memory was spoken in, as the speech engine detected it (ISO 639-1 "en", or
 * Whisper's 639-2 code where none exists, "haw"); null when the engine does not say (pocketsphinx,
 * memories recorded before). The summary, title and tags are written in it.
 */
export const memoryLanguage: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("memories")
      .addColumn("language", "varchar(3)", (c) =>
        c.check(sql`language is null or length(language) between 2 and 3`),
      )
      .execute();
  },
};
