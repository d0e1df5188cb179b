import { type Kysely, type Selectable, sql } from "kysely";
import type { DatabaseKind } from "../db/connection";
import type { Database, MemoryPhotosTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type PhotoRow = Selectable<MemoryPhotosTable>;

/** Ids per `in (...)` list: well under SQLite's and PostgreSQL's limits on bound parameters. */
const ID_CHUNK = 500;

/** The storage keys of a row's three files. */
export function photoKeys(row: Pick<PhotoRow, "full_key" | "medium_key" | "thumb_key">): string[] {
  return [row.full_key, row.medium_key, row.thumb_key];
}

/** The only code that reads or writes the memory_photos table. */
export class PhotosRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {}

  /**
   * Makes the transaction the only one changing this memory's photos until it ends, so that
   * uploads in parallel each take the next position in turn instead of colliding on it.
   * PostgreSQL: a transaction-scoped advisory lock on the memory; SQLite has one writer.
   */
  async lockMemory(memoryId: string, trx: Executor): Promise<void> {
    if (this.kind !== "postgres") return;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`memory-photos:${memoryId}`}, 0))`.execute(
      trx,
    );
  }

  async findById(id: string): Promise<PhotoRow | undefined> {
    return this.db.selectFrom("memory_photos").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** A memory's photos, cover first. */
  async listForMemory(memoryId: string, ex: Executor = this.db): Promise<PhotoRow[]> {
    return ex
      .selectFrom("memory_photos")
      .selectAll()
      .where("memory_id", "=", memoryId)
      .orderBy("position")
      .execute();
  }

  /** The photos of many memories (a page of a list), each memory's cover first. */
  async listForMemories(memoryIds: readonly string[]): Promise<PhotoRow[]> {
    const rows: PhotoRow[] = [];
    for (let i = 0; i < memoryIds.length; i += ID_CHUNK) {
      rows.push(
        ...(await this.db
          .selectFrom("memory_photos")
          .selectAll()
          .where("memory_id", "in", memoryIds.slice(i, i + ID_CHUNK))
          .orderBy("memory_id")
          .orderBy("position")
          .execute()),
      );
    }
    return rows;
  }

  /** The next free position of a memory (its photo count, since positions have no gaps). */
  async nextPosition(memoryId: string, ex: Executor = this.db): Promise<number> {
    const row = await ex
      .selectFrom("memory_photos")
      .select((eb) => eb.fn.max("position").as("last"))
      .where("memory_id", "=", memoryId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  /** Inserts a photo; the unique (memory, position) pair and `position <= 9` may refuse it. */
  async insert(row: PhotoRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto("memory_photos").values(row).execute();
  }

  /**
   * Rewrites a memory's positions in the given order (rows as read in the same transaction).
   * Deleted and inserted again, because moving positions one by one would collide with the
   * unique (memory, position) pair midway.
   */
  async rewriteOrder(memoryId: string, ordered: readonly PhotoRow[], trx: Executor): Promise<void> {
    await trx.deleteFrom("memory_photos").where("memory_id", "=", memoryId).execute();
    if (ordered.length === 0) return;
    await trx
      .insertInto("memory_photos")
      .values(ordered.map((row, position) => ({ ...row, position })))
      .execute();
  }

  /** Deletes the photos of these memories; returns the deleted rows (their files go after). */
  async deleteForMemories(memoryIds: readonly string[], ex: Executor): Promise<PhotoRow[]> {
    const rows: PhotoRow[] = [];
    for (let i = 0; i < memoryIds.length; i += ID_CHUNK) {
      rows.push(
        ...(await ex
          .deleteFrom("memory_photos")
          .where("memory_id", "in", memoryIds.slice(i, i + ID_CHUNK))
          .returningAll()
          .execute()),
      );
    }
    return rows;
  }

  /** Up to `limit` rows after the id `afterId`, by id: the instance check walks every row so. */
  async pageById(afterId: string, limit: number): Promise<PhotoRow[]> {
    return this.db
      .selectFrom("memory_photos")
      .selectAll()
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
  }
}
