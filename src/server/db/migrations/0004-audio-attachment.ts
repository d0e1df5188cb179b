import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * An upload belongs to at most one memory or comment, enforced by the database:
 * - `audio_files.attached_to` ('memory:<id>' or 'comment:<id>') is set once by a conditional
 *   UPDATE (`where attached_to is null`), so of concurrent requests using one upload exactly one
 *   wins, whichever table it writes to;
 * - unique indexes on `memories.audio_id` and `comments.audio_id` stop a second row in either table;
 * - `upload_key` (the uploader's hashed recording key) replaces a LIKE scan on storage_key.
 *
 * Existing data keeps working: attachments are filled in from the rows that use each file, the
 * earliest user first. A file shared by several rows (possible before this migration) stays with
 * that first row and the later rows lose their reference, instead of the whole migration failing;
 * such rows were made by the bug this migration closes.
 */
export const audioAttachment: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    await db.schema
      .alterTable("audio_files")
      .addColumn("attached_to", "text", (c) =>
        c.check(sql`attached_to like 'memory:%' or attached_to like 'comment:%'`),
      )
      .execute();
    await db.schema.alterTable("audio_files").addColumn("upload_key", "text").execute();

    // Uploads stored with a key were named `<40 hex>.<extension>`; random names never look so.
    const keyBase =
      kind === "sqlite"
        ? sql`substr(storage_key, 1, instr(storage_key, '.') - 1)`
        : sql`split_part(storage_key, '.', 1)`;
    await sql`update audio_files set upload_key = ${keyBase}
      where length(${keyBase}) = 40`.execute(db);

    // Every row that uses a file, earliest first; the first one owns it.
    await sql`update audio_files set attached_to = (
        select owner from (
          select 'memory:' || m.id as owner, m.created_at as at, 0 as pref
            from memories m where m.audio_id = audio_files.id
          union all
          select 'comment:' || c.id as owner, c.created_at as at, 1 as pref
            from comments c where c.audio_id = audio_files.id
        ) uses order by at, pref, owner limit 1
      )`.execute(db);
    await sql`update memories set audio_id = null where audio_id is not null and not exists (
        select 1 from audio_files a where a.id = memories.audio_id and a.attached_to = 'memory:' || memories.id
      )`.execute(db);
    await sql`update comments set audio_id = null where audio_id is not null and not exists (
        select 1 from audio_files a where a.id = comments.audio_id and a.attached_to = 'comment:' || comments.id
      )`.execute(db);

    await sql`create unique index memories_audio_id on memories (audio_id) where audio_id is not null`.execute(
      db,
    );
    await sql`create unique index comments_audio_id on comments (audio_id) where audio_id is not null`.execute(
      db,
    );
    await sql`create unique index audio_files_upload_key on audio_files (upload_key) where upload_key is not null`.execute(
      db,
    );
    await sql`create unique index audio_files_attached_to on audio_files (attached_to) where attached_to is not null`.execute(
      db,
    );
    // The housekeeping sweep finds old unattached uploads by this index.
    await sql`create index audio_files_unattached on audio_files (created_at) where attached_to is null`.execute(
      db,
    );
  },
};
