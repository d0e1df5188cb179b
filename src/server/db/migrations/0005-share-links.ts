import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Private share links (ADR 0019): one row per named link of a profile's owner. Only the SHA-256
 * hash of the link's token is kept, so the table cannot be turned back into working links.
 * Deleting the account deletes its links (cascade); revoking one deletes its row.
 */
export const shareLinks: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("share_links")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("label", "text", (c) => c.notNull().check(sql`length(label) between 1 and 60`))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("last_used_at", "text")
      .addColumn("visits", "integer", (c) => c.notNull().defaultTo(0).check(sql`visits >= 0`))
      .execute();
    await db.schema
      .createIndex("share_links_user_id")
      .on("share_links")
      .columns(["user_id", "created_at"])
      .execute();
  },
};
