import type { Kysely } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Each scope's walked page anchors (ADR 0027), kept in the database so that a process just started,
 * or another instance on the same database, reads them back instead of walking again: one row per
 * user, scope (all or saved only) and reading direction, holding the anchors' keys and places as
 * JSON and the list revision (migration 0009) they hold at. A reader moves them on past the changes
 * logged since (migration 0011) exactly as a process moves its own cached anchors on, or drops them
 * when the log no longer reaches back that far. Written only after a walk, never by a trigger, so
 * writes of memories cost nothing more. The rows go with the user's memory_counts row.
 */
export const persistedPageAnchors: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("memory_page_anchors")
      .addColumn("user_id", "text", (c) =>
        c.notNull().references("memory_counts.user_id").onDelete("cascade"),
      )
      .addColumn("scope", "text", (c) => c.notNull())
      .addColumn("revision", "integer", (c) => c.notNull())
      .addColumn("anchors", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("memory_page_anchors_pk", ["user_id", "scope"])
      .execute();
  },
};
