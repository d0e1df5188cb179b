import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Relatives' news is confirmed by the address first (double opt-in): `confirmed_at` is when the
 * address opened its confirmation link (null while it has not), `confirm_sent_at` when the last
 * confirmation mail went (an unconfirmed address is not mailed again for a while). Addresses
 * already on a link were asked for before this: they stay confirmed, from when they were added.
 */
export const relativeNewsConfirmation: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("share_link_subscriptions")
      .addColumn("confirmed_at", "text")
      .execute();
    await db.schema
      .alterTable("share_link_subscriptions")
      .addColumn("confirm_sent_at", "text")
      .execute();
    await sql`update share_link_subscriptions set confirmed_at = created_at`.execute(db);
  },
};
