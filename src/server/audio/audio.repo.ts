import type { Kysely, Selectable } from "kysely";
import type { AudioFilesTable, Database } from "../db/schema";

export type AudioRow = Selectable<AudioFilesTable>;

/** What decides whether someone may hear audio referenced by a memory (or a comment on it). */
export interface AudioReference {
  memoryUserId: string | null;
  memoryAnonHash: string | null;
  memoryStatus: string;
  /** users.is_public of the memory's owner; null for an anonymous (unclaimed) memory. */
  ownerIsPublic: number | null;
}

/** The only code that reads or writes the audio_files table. */
export class AudioRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AudioRow): Promise<void> {
    await this.db.insertInto("audio_files").values(row).execute();
  }

  async findById(id: string): Promise<AudioRow | undefined> {
    return this.db.selectFrom("audio_files").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The row whose storage key is `base` plus an extension (`base` is hex: no LIKE wildcards). */
  async findByStorageKeyBase(base: string): Promise<AudioRow | undefined> {
    return this.db
      .selectFrom("audio_files")
      .selectAll()
      .where("storage_key", "like", `${base}.%`)
      .executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom("audio_files").where("id", "=", id).execute();
  }

  /**
   * Every memory that uses this audio, directly or through one of its comments, with what the
   * visibility rule needs. This read joins the memories, comments and users tables on purpose:
   * audio visibility follows memory visibility, and doing it in one place here keeps the audio
   * route to a single lookup instead of calling three other features' services per request.
   */
  async referencesTo(audioId: string): Promise<AudioReference[]> {
    const direct = await this.db
      .selectFrom("memories as m")
      .leftJoin("users as u", "u.id", "m.user_id")
      .select([
        "m.user_id as memoryUserId",
        "m.anon_owner_hash as memoryAnonHash",
        "m.status as memoryStatus",
        "u.is_public as ownerIsPublic",
      ])
      .where("m.audio_id", "=", audioId)
      .execute();
    const viaComments = await this.db
      .selectFrom("comments as c")
      .innerJoin("memories as m", "m.id", "c.memory_id")
      .leftJoin("users as u", "u.id", "m.user_id")
      .select([
        "m.user_id as memoryUserId",
        "m.anon_owner_hash as memoryAnonHash",
        "m.status as memoryStatus",
        "u.is_public as ownerIsPublic",
      ])
      .where("c.audio_id", "=", audioId)
      .execute();
    return [...direct, ...viaComments];
  }
}
