import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * A new transcription offered beside a transcript the owner edited (ADR 0045): the machine's text,
 * its timed segments (JSON, as `transcript_segments`) and the engine that made it. The owner's
 * edit is never replaced; they keep theirs or take this one. `proposed_engine` stays once they
 * keep theirs, so the same offer is not made again. The database refuses a proposal beside a
 * transcript that was not edited, and segments without a proposal.
 */
export const transcriptProposals: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("memories")
      .addColumn("proposed_transcript", "text", (c) =>
        c.check(sql`proposed_transcript is null or transcript_edited = 1`),
      )
      .execute();
    await db.schema
      .alterTable("memories")
      .addColumn("proposed_segments", "text", (c) =>
        c.check(sql`proposed_segments is null or proposed_transcript is not null`),
      )
      .execute();
    await db.schema
      .alterTable("memories")
      .addColumn("proposed_engine", "varchar(100)", (c) =>
        c.check(sql`proposed_transcript is null or proposed_engine is not null`),
      )
      .execute();
  },
};
