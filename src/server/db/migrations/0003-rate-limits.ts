import type { Kysely } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Rate-limit counters live in the database, so several app instances on one PostgreSQL share them
 * (and a restart does not reset them). One row per limited key and route: its count in the current window and
 * when that window ends (epoch ms).
 */
export const rateLimits: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("rate_limits")
      .addColumn("key", "varchar(600)", (c) => c.primaryKey())
      .addColumn("count", "integer", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("rate_limits_expires")
      .on("rate_limits")
      .column("expires_at")
      .execute();
  },
};
