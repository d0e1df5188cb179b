import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Questions the family asks a storyteller (ADR 0061): who is asked, who asked (their name kept if
 * they leave), the words, and the memory that answered it once one did.
 */
export const familyQuestions: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("family_questions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("journal_id", "text", (c) =>
        c.notNull().references("journals.id").onDelete("cascade"),
      )
      .addColumn("member_id", "text", (c) =>
        c.notNull().references("journal_members.id").onDelete("cascade"),
      )
      .addColumn("asked_by_member_id", "text", (c) =>
        c.references("journal_members.id").onDelete("set null"),
      )
      .addColumn("asked_by_name", "text", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull().check(sql`length(text) between 1 and 300`))
      .addColumn("memory_id", "text", (c) => c.references("memories.id").onDelete("set null"))
      .addColumn("answered_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("family_questions_member")
      .on("family_questions")
      .columns(["member_id", "answered_at", "created_at"])
      .execute();
  },
};
