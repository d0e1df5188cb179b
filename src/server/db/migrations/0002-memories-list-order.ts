import type { Kysely } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Lists page by (recorded_at, seq) so that the index alone orders a page and finds its offset:
 * without seq in the index every list request sorted all of a user's memories (see
 * bench/memories-list.ts). The second index serves public profiles, which show saved memories only.
 * On PostgreSQL seq also needs its own index to fetch a page's rows by it (on SQLite it is the rowid).
 */
export const memoriesListOrder: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    if (kind === "postgres") {
      await db.schema.createIndex("memories_seq").unique().on("memories").column("seq").execute();
    }
    await db.schema
      .createIndex("memories_user_recorded_seq")
      .on("memories")
      .columns(["user_id", "recorded_at", "seq"])
      .execute();
    await db.schema
      .createIndex("memories_user_status_recorded_seq")
      .on("memories")
      .columns(["user_id", "status", "recorded_at", "seq"])
      .execute();
    await db.schema.dropIndex("memories_user_recorded").execute();
  },
};
