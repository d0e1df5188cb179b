import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * How each memory's and comment's transcript was made (ADR 0041): the engine and model ("whisper.cpp
 * ggml-base.bin", "pocketsphinx", "whisper-1"; null for memories transcribed before this was kept),
 * its timed segments as JSON (`[{start, end, text}]` in seconds; null when the engine gave none), and
 * whether the owner has edited it (an edited transcript is never replaced by a new transcription).
 * Comments keep their engine and segments too.
 */
export const timedTranscripts: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("memories").addColumn("transcript_engine", "varchar(100)").execute();
    await db.schema.alterTable("memories").addColumn("transcript_segments", "text").execute();
    await db.schema
      .alterTable("memories")
      .addColumn("transcript_edited", "integer", (c) =>
        c.notNull().defaultTo(0).check(sql`transcript_edited in (0, 1)`),
      )
      .execute();
    await db.schema.alterTable("comments").addColumn("transcript_engine", "varchar(100)").execute();
    await db.schema.alterTable("comments").addColumn("transcript_segments", "text").execute();
  },
};
