import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Who reads which language: an account's own choice (null: the browser's), a journal's (its book,
 * its questions, its storytellers' link pages), a member's (the invitation, and the link page of a
 * storyteller without an account) and a news subscriber's (the language they subscribed in).
 * Language tags are checked by the API; the database keeps them tag-shaped.
 */
export const languages: DialectMigration = {
  async up(db: Kysely<unknown>) {
    const tag = (column: string) =>
      sql`${sql.ref(column)} is null or length(${sql.ref(column)}) between 2 and 10`;
    await db.schema
      .alterTable("users")
      .addColumn("language", "text", (c) => c.check(tag("language")))
      .execute();
    await db.schema
      .alterTable("journals")
      .addColumn("language", "text", (c) => c.notNull().defaultTo("en").check(tag("language")))
      .execute();
    await db.schema
      .alterTable("journal_members")
      .addColumn("language", "text", (c) => c.check(tag("language")))
      .execute();
    await db.schema
      .alterTable("share_link_subscriptions")
      .addColumn("language", "text", (c) => c.notNull().defaultTo("en").check(tag("language")))
      .execute();
  },
};
