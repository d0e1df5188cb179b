import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Replies reach the storyteller (ADR 0063):
 * - `comments.member_id`: the member who replied, when a member did (null for a visitor through a
 *   share link), so a storyteller's own reply is neither marked new nor mailed to them;
 * - `reply_views`: when the storyteller who told a memory last opened its replies; those made
 *   later are new to them (gone with the memory);
 * - `journal_members.replies_mailed_until` (the newest reply their last mail told of) and
 *   `replies_mail_stopped_at` (their one-click unsubscribe);
 * - `family_questions.position`: the order an organizer gives a storyteller's questions, first
 *   filled in the order they were asked.
 */
export const repliesReachStorytellers: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("comments")
      .addColumn("member_id", "text", (c) =>
        c.references("journal_members.id").onDelete("set null"),
      )
      .execute();
    await db.schema
      .createTable("reply_views")
      .addColumn("memory_id", "text", (c) =>
        c.primaryKey().references("memories.id").onDelete("cascade"),
      )
      .addColumn("seen_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .alterTable("journal_members")
      .addColumn("replies_mailed_until", "text")
      .execute();
    await db.schema
      .alterTable("journal_members")
      .addColumn("replies_mail_stopped_at", "text")
      .execute();
    await db.schema
      .alterTable("family_questions")
      .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update family_questions set position = (
      select count(*) from family_questions earlier
      where earlier.member_id = family_questions.member_id
        and (earlier.created_at < family_questions.created_at
          or (earlier.created_at = family_questions.created_at and earlier.id < family_questions.id))
    )`.execute(db);
    await db.schema
      .createIndex("family_questions_member_position")
      .on("family_questions")
      .columns(["member_id", "position"])
      .execute();
  },
};
