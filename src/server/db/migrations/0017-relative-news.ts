import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * News of new stories for relatives (ADR 0044): one row per address that asked to be mailed when
 * memories are saved, on one share link. Revoking the link deletes its rows (cascade), so the
 * mails stop with it; an address is on a link once. `covered_until` is the creation time of the
 * last memory a mail covered (memories made after it are news), `last_sent_at` spaces the mails,
 * and `locked_until` is the claim of the instance sending one (several instances, one mail).
 * `token_sealed` is the link's token encrypted with a server secret, for the mail's links.
 */
export const relativeNews: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("share_link_subscriptions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("share_link_id", "text", (c) =>
        c.notNull().references("share_links.id").onDelete("cascade"),
      )
      .addColumn("email", "text", (c) => c.notNull().check(sql`length(email) between 3 and 254`))
      .addColumn("token_sealed", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("covered_until", "text", (c) => c.notNull())
      .addColumn("last_sent_at", "text")
      .addColumn("locked_until", "text")
      .addUniqueConstraint("share_link_subscriptions_link_email", ["share_link_id", "email"])
      .execute();
  },
};
