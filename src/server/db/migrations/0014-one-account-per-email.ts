import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * An email belongs to one account (ADR 0038): a reset link for an address then reaches exactly the
 * account that proved it owns it. Where several accounts share an address, the oldest keeps it and
 * the others lose it (their owners can set it again once it is theirs alone).
 */
export const oneAccountPerEmail: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await sql`
      update users set email = null, email_lower = null
      where email_lower is not null and exists (
        select 1 from users older
        where older.email_lower = users.email_lower
          and (older.created_at < users.created_at
            or (older.created_at = users.created_at and older.id < users.id))
      )`.execute(db);
    await db.schema.dropIndex("users_email_lower").execute();
    await db.schema
      .createIndex("users_email_lower_unique")
      .on("users")
      .column("email_lower")
      .unique()
      .execute();
  },
};
