import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * Photos beside a memory (ADR 0043). One row per photo, made by us from the upload in three sizes
 * (full, medium, thumbnail), each a file in the storage named by its key. `position` orders a
 * memory's photos (0 is the cover); it is unique per memory and at most 9, so the database itself
 * refuses an eleventh photo. A memory is deleted only after its photos (no cascade): the code that
 * deletes the rows also removes their files.
 */
export const photos: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("memory_photos")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("memory_id", "text", (c) => c.notNull().references("memories.id"))
      .addColumn("position", "integer", (c) => c.notNull().check(sql`position between 0 and 9`))
      .addColumn("width", "integer", (c) => c.notNull().check(sql`width > 0`))
      .addColumn("height", "integer", (c) => c.notNull().check(sql`height > 0`))
      .addColumn("full_key", "text", (c) => c.notNull().unique())
      .addColumn("medium_key", "text", (c) => c.notNull().unique())
      .addColumn("thumb_key", "text", (c) => c.notNull().unique())
      .addColumn("bytes", "integer", (c) => c.notNull().check(sql`bytes >= 0`))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("memory_photos_memory_position", ["memory_id", "position"])
      .execute();
  },
};
