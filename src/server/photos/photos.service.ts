import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { PHOTOS_PER_MEMORY, type PhotoSize } from "../../shared/photos";
import type { Photo } from "../../shared/schemas";
import type { Identity } from "../auth/session.service";
import { isForeignKeyViolation, isUniqueViolation } from "../db/constraint-errors";
import type { Executor, Transactions } from "../db/transactions";
import { badRequest, conflict, notFound } from "../http-errors";
import { newId, nowIso } from "../ids";
import type { AudioStorage } from "../storage/audio-storage";
import type { FileReference, StoredFileOwner } from "../storage/stored-files";
import { type PhotoRenditions, renderPhoto, renderRestored } from "./photo-image";
import { type PhotoRow, type PhotosRepo, photoKeys } from "./photos.repo";

export const PHOTO_URL_PREFIX = "/api/photos/";
const PHOTO_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** What the photos feature asks of memories: who owns one, who may see one. */
export interface PhotoMemoryAccess {
  /** Resolves when `identity` owns the memory; throws 401, 403 or 404 (as the memories routes). */
  assertOwner(memoryId: string, identity: Identity): Promise<void>;
  /**
   * Resolves when `identity` may add a photo to the memory (`memory.addPhoto`: its editors, or its
   * storyteller's recording link); throws 401, 403 or 404 as assertOwner.
   */
  assertMayAdd(memoryId: string, identity: Identity): Promise<void>;
  /** True when the memory exists and `identity` may see it. */
  isVisible(memoryId: string, identity: Identity): Promise<boolean>;
}

/** A photo from a backup, its files stored, waiting for its memory's row (`insertImported`). */
export type ImportedPhoto = Omit<PhotoRow, "memory_id" | "position" | "created_at">;

/** A memory's photo as a backup lists it: where its full-size file sits in the zip. */
export interface BackupPhoto {
  row: PhotoRow;
  /** The full size's bytes in storage, or null when the file is missing. */
  fullBytes: number | null;
}

/** A photo as the memory book places it: its medium size's key, and its proportions. */
export interface BookPhoto {
  key: string;
  width: number;
  height: number;
}

export function toPhotoDto(row: PhotoRow): Photo {
  return { id: row.id, url: `${PHOTO_URL_PREFIX}${row.id}`, width: row.width, height: row.height };
}

/** Rows per page when every photo row is walked (the instance check and backup). */
const REFERENCE_PAGE = 1000;

/**
 * A memory's photos: added (decoded and re-encoded by us in three sizes), reordered, removed and
 * served with the memory's visibility. The files live in the same storage as audio.
 */
export class PhotosService implements StoredFileOwner {
  constructor(
    private readonly repo: PhotosRepo,
    private readonly storage: AudioStorage,
    private readonly transactions: Transactions,
    private readonly memories: PhotoMemoryAccess,
  ) {}

  /**
   * Adds a photo to the owner's memory. The image is checked and rendered before anything is
   * stored; its files are written, then its row; a row that cannot be inserted (the memory is
   * full or was deleted meanwhile) takes its files with it.
   */
  async add(memoryId: string, identity: Identity, upload: Buffer): Promise<Photo> {
    await this.memories.assertMayAdd(memoryId, identity);
    if ((await this.repo.nextPosition(memoryId)) >= PHOTOS_PER_MEMORY) {
      throw badRequest("photo.too_many");
    }
    const photo = await this.store(await renderPhoto(upload));
    try {
      return toPhotoDto(await this.insertAtNextPosition(memoryId, photo));
    } catch (error) {
      await this.removeFiles(photoKeys(photo));
      throw error;
    }
  }

  /** Writes the three sizes under new keys; on a failure, what was written goes again. */
  private async store(renditions: PhotoRenditions): Promise<ImportedPhoto> {
    const id = newId();
    const photo: ImportedPhoto = {
      id,
      width: renditions.full.width,
      height: renditions.full.height,
      full_key: `${id}-full.jpg`,
      medium_key: `${id}-medium.jpg`,
      thumb_key: `${id}-thumb.jpg`,
      bytes:
        renditions.full.bytes.length +
        renditions.medium.bytes.length +
        renditions.thumb.bytes.length,
    };
    const written: string[] = [];
    try {
      for (const size of ["full", "medium", "thumb"] as const) {
        const key = photo[`${size}_key`];
        await this.storage.write(
          key,
          Readable.from([renditions[size].bytes], { objectMode: false }),
        );
        written.push(key);
      }
    } catch (error) {
      await this.removeFiles(written);
      throw error;
    }
    return photo;
  }

  private async insertAtNextPosition(memoryId: string, photo: ImportedPhoto): Promise<PhotoRow> {
    try {
      // One upload at a time takes the memory's next position (parallel uploads queue here).
      return await this.transactions.run(async (trx) => {
        await this.repo.lockMemory(memoryId, trx);
        const position = await this.repo.nextPosition(memoryId, trx);
        if (position >= PHOTOS_PER_MEMORY) throw badRequest("photo.too_many");
        const row: PhotoRow = { ...photo, memory_id: memoryId, position, created_at: nowIso() };
        await this.repo.insert(row, trx);
        return row;
      });
    } catch (error) {
      // Under the lock no other upload takes the position; answered plainly should it happen.
      if (isUniqueViolation(error)) throw conflict("photo.change_failed");
      // The memory was deleted (or its account) while the photo was being made.
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
  }

  /** The owner's memory's photos in the new order: `ids` names each of them exactly once. */
  async reorder(memoryId: string, identity: Identity, ids: readonly string[]): Promise<Photo[]> {
    await this.memories.assertOwner(memoryId, identity);
    const rows = await this.transactions.run(async (trx) => {
      await this.repo.lockMemory(memoryId, trx);
      const current = await this.repo.listForMemory(memoryId, trx);
      const byId = new Map(current.map((row) => [row.id, row]));
      const ordered = ids.map((id) => byId.get(id));
      if (
        ids.length !== current.length ||
        new Set(ids).size !== ids.length ||
        ordered.some((row) => row === undefined)
      ) {
        throw badRequest("photo.order_mismatch");
      }
      await this.repo.rewriteOrder(memoryId, ordered as PhotoRow[], trx);
      return ordered as PhotoRow[];
    });
    return rows.map(toPhotoDto);
  }

  /** Removes one photo of the owner's memory (404 when it is not that memory's); the rest close up. */
  async remove(memoryId: string, identity: Identity, photoId: string): Promise<void> {
    await this.memories.assertOwner(memoryId, identity);
    const removed = await this.transactions.run(async (trx) => {
      await this.repo.lockMemory(memoryId, trx);
      const current = await this.repo.listForMemory(memoryId, trx);
      const gone = current.find((row) => row.id === photoId);
      if (!gone) throw notFound();
      await this.repo.rewriteOrder(
        memoryId,
        current.filter((row) => row !== gone),
        trx,
      );
      return gone;
    });
    await this.removeFiles(photoKeys(removed));
  }

  /**
   * The stored file of a photo in one size when `identity` may see its memory; null otherwise
   * (answer 404, exactly as for a missing photo).
   */
  async findVisible(
    id: string,
    size: PhotoSize,
    identity: Identity,
  ): Promise<{ row: PhotoRow; key: string } | null> {
    if (!PHOTO_ID.test(id)) return null;
    const row = await this.repo.findById(id);
    if (!row || !(await this.memories.isVisible(row.memory_id, identity))) return null;
    return { row, key: row[`${size}_key`] };
  }

  /** The stored size in bytes, or null when the file is missing. */
  size(key: string): Promise<number | null> {
    return this.storage.size(key);
  }

  open(key: string): Readable {
    return this.storage.read(key);
  }

  /** The photos of these memories for their JSON, each memory's cover first. */
  forMemories(memoryIds: readonly string[]): Promise<Map<string, Photo[]>> {
    return this.byMemory(memoryIds, toPhotoDto);
  }

  /**
   * Deletes the photo rows of these memories inside the caller's transaction (before the memories
   * themselves: the foreign key has no cascade); returns their storage keys for `removeFiles`.
   */
  async deleteForMemories(memoryIds: readonly string[], trx: Executor): Promise<string[]> {
    return (await this.repo.deleteForMemories(memoryIds, trx)).flatMap(photoKeys);
  }

  /** For the memory book: each memory's photos, cover first, by the key of their medium size. */
  forBook(memoryIds: readonly string[]): Promise<Map<string, BookPhoto[]>> {
    return this.byMemory(memoryIds, (row) => ({
      key: row.medium_key,
      width: row.width,
      height: row.height,
    }));
  }

  private async byMemory<T>(memoryIds: readonly string[], as: (row: PhotoRow) => T) {
    const byMemory = new Map<string, T[]>();
    if (memoryIds.length === 0) return byMemory;
    for (const row of await this.repo.listForMemories(memoryIds)) {
      byMemory.set(row.memory_id, [...(byMemory.get(row.memory_id) ?? []), as(row)]);
    }
    return byMemory;
  }

  /** A stored photo file's bytes (a medium size is well under 1 MB). */
  readFile(key: string): Promise<Buffer> {
    return buffer(this.storage.read(key));
  }

  /** For the backup: the photos of these memories, each memory's cover first, with their sizes. */
  async forBackup(memoryIds: readonly string[]): Promise<BackupPhoto[]> {
    if (memoryIds.length === 0) return [];
    const rows = await this.repo.listForMemories(memoryIds);
    const out: BackupPhoto[] = [];
    for (const row of rows) out.push({ row, fullBytes: await this.storage.size(row.full_key) });
    return out;
  }

  /**
   * A photo from a backup, checked as an upload is (400 otherwise), its files stored: the full
   * size byte for byte when it is one of ours (`renderRestored`). Attach it with `insertImported`
   * in the transaction that creates its memory, or remove it with `discardImported`.
   */
  async prepareImport(bytes: Buffer): Promise<ImportedPhoto> {
    return this.store(await renderRestored(bytes));
  }

  /** The dry run of a restore: throws 400 unless `bytes` would restore as a photo. */
  async verifyImport(bytes: Buffer): Promise<void> {
    await renderRestored(bytes);
  }

  /** The rows of imported photos, in order, inside the transaction that inserts their memory. */
  async insertImported(memoryId: string, photos: readonly ImportedPhoto[], trx: Executor) {
    const created_at = nowIso();
    for (const [position, photo] of photos.entries()) {
      await this.repo.insert({ ...photo, memory_id: memoryId, position, created_at }, trx);
    }
  }

  /** Removes the files of imported photos whose memory was not saved. */
  async discardImported(photos: readonly ImportedPhoto[]): Promise<void> {
    await this.removeFiles(photos.flatMap(photoKeys));
  }

  async *references(): AsyncIterable<FileReference> {
    let afterId = "";
    for (;;) {
      const rows = await this.repo.pageById(afterId, REFERENCE_PAGE);
      for (const row of rows) {
        for (const key of photoKeys(row)) {
          yield { key, label: `photo ${row.id} of memory:${row.memory_id}`, disposable: false };
        }
      }
      const last = rows.at(-1);
      if (!last || rows.length < REFERENCE_PAGE) return;
      afterId = last.id;
    }
  }

  /** Every photo row belongs to a memory: none is disposable. */
  async deleteDisposable(): Promise<number> {
    return 0;
  }

  /** Removes stored files whose rows are gone; a file that fails to delete is only an orphan. */
  async removeFiles(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.storage.delete(key).catch(() => undefined);
  }
}
