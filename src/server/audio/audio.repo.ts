import type { Kysely, Selectable } from "kysely";
import type { AudioFilesTable, Database } from "../db/schema";
import type { Executor } from "../db/transactions";

export type AudioRow = Selectable<AudioFilesTable>;

/** What an upload is attached to: a memory or a spoken comment, once and for good. */
export type Attachment = { kind: "memory"; id: string } | { kind: "comment"; id: string };

export function attachmentKey(attachment: Attachment): string {
  return `${attachment.kind}:${attachment.id}`;
}

export function parseAttachment(value: string | null): Attachment | null {
  if (!value) return null;
  const separator = value.indexOf(":");
  const kind = value.slice(0, separator);
  const id = value.slice(separator + 1);
  if (separator < 0 || !id) return null;
  if (kind === "memory" || kind === "comment") return { kind, id };
  return null;
}

/** Ids per `in (...)` list: well under SQLite's and PostgreSQL's limits on bound parameters. */
const ID_CHUNK = 500;

/** The only code that reads or writes the audio_files table. */
export class AudioRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AudioRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto("audio_files").values(row).execute();
  }

  async findById(id: string, ex: Executor = this.db): Promise<AudioRow | undefined> {
    return ex.selectFrom("audio_files").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async findMany(ids: readonly string[]): Promise<AudioRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom("audio_files").selectAll().where("id", "in", ids).execute();
  }

  /** Up to `limit` rows after the id `afterId`, by id: the instance check walks every row so. */
  async pageById(afterId: string, limit: number): Promise<AudioRow[]> {
    return this.db
      .selectFrom("audio_files")
      .selectAll()
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  /** Deletes the never-attached uploads stored under these keys; returns how many went. */
  async deleteUnattachedByKeys(keys: readonly string[]): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < keys.length; i += ID_CHUNK) {
      const result = await this.db
        .deleteFrom("audio_files")
        .where("storage_key", "in", keys.slice(i, i + ID_CHUNK))
        .where("attached_to", "is", null)
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }

  /** The upload stored under this uploader's hashed recording key (a unique index finds it). */
  async findByUploadKey(uploadKey: string): Promise<AudioRow | undefined> {
    return this.db
      .selectFrom("audio_files")
      .selectAll()
      .where("upload_key", "=", uploadKey)
      .executeTakeFirst();
  }

  /**
   * Attaches an unattached upload to `attachment` (a restored file's placeholder row also gets its
   * size, `bytes`). One conditional UPDATE: of concurrent attempts on one upload exactly one
   * matches `attached_to is null`; the others, and a row that is gone, get false.
   */
  async attach(
    audioId: string,
    attachment: Attachment,
    ex: Executor = this.db,
    bytes?: number,
  ): Promise<boolean> {
    const result = await ex
      .updateTable("audio_files")
      .set({ attached_to: attachmentKey(attachment), ...(bytes === undefined ? {} : { bytes }) })
      .where("id", "=", audioId)
      .where("attached_to", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The upload changes hands with the memory it belongs to (a claimed anonymous recording). */
  async setUploader(audioId: string, userId: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable("audio_files")
      .set({ owner_user_id: userId, owner_anon_hash: null })
      .where("id", "=", audioId)
      .execute();
  }

  /**
   * Deletes uploads never attached to anything and made before `cutoff`; returns their storage
   * keys. One conditional DELETE: an attach racing it either wins (the row stays) or finds no row.
   */
  async deleteUnattachedBefore(cutoff: Date): Promise<string[]> {
    const rows = await this.db
      .deleteFrom("audio_files")
      .where("attached_to", "is", null)
      .where("created_at", "<", cutoff.toISOString())
      .returning("storage_key")
      .execute();
    return rows.map((row) => row.storage_key);
  }

  /**
   * Deletes rows and returns their storage keys, for removing the files after the commit. Long
   * lists (a whole account) go in chunks, within the databases' limits on bound parameters.
   */
  async deleteMany(ids: readonly string[], ex: Executor = this.db): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const rows = await ex
        .deleteFrom("audio_files")
        .where("id", "in", ids.slice(i, i + ID_CHUNK))
        .returning("storage_key")
        .execute();
      for (const row of rows) keys.push(row.storage_key);
    }
    return keys;
  }

  /** Deletes a user's uploads that belong to no memory or comment; returns their storage keys. */
  async deleteUnattachedOfUser(userId: string, ex: Executor): Promise<string[]> {
    const rows = await ex
      .deleteFrom("audio_files")
      .where("owner_user_id", "=", userId)
      .where("attached_to", "is", null)
      .returning("storage_key")
      .execute();
    return rows.map((row) => row.storage_key);
  }
}
