import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { backupSqliteFile } from "../db/sqlite-backup";
import { type AudioStorage, StorageUnavailableError } from "../storage/audio-storage";
import { LocalAudioStorage } from "../storage/local-storage";
import { type CopyReport, copyAudio } from "../storage/storage-copy";
import type { FileReference } from "../storage/stored-files";
import { type CheckReport, checkInstance, type InstanceCheck } from "./instance-check";

/** A backup folder is laid out as a data folder: DATA_DIR can point at it. */
export const BACKUP_DATABASE_FILE = "journal.db";
export const BACKUP_FILES_FOLDER = "audio";
/** Where the operator puts PostgreSQL's dump, taken before the files are copied. */
export const BACKUP_PG_DUMP_FILE = "journal.pgdump";

export interface BackupSource {
  /** The live SQLite file; null on PostgreSQL, whose copy `pg_dump` makes. */
  sqliteFile: string | null;
  storage: AudioStorage;
  /**
   * How long one call to the storage (a check, a page of the listing, a size) may take in all:
   * a hung bucket that keeps a connection alive by trickling bytes fails the backup too.
   */
  callTimeoutMs: number;
  /** The instance made of a copied database and the copied files, to check them together. */
  openCopy(
    databaseFile: string,
    files: AudioStorage,
  ): Promise<InstanceCheck & { close(): Promise<void> }>;
}

export interface BackupReport {
  /** Pages in the database copy (SQLite only). */
  pages: number | null;
  files: CopyReport;
  /** Files saved after the database copy was taken: left out, as the copy names none of them. */
  leftOut: number;
  /** The copy checked with its files (SQLite only): rows whose file was deleted while it ran. */
  check: CheckReport | null;
}

/**
 * A copy of the whole instance while it runs, in `dir` (new, or holding only the PostgreSQL dump). On SQLite: the database by
 * SQLite's online backup first, then every stored file through the storage interface, then the
 * two checked together; files saved after the database copy are dropped from it, so the backup
 * holds exactly the files its database names. On PostgreSQL the files only: `pg_dump` copies the
 * database into BACKUP_PG_DUMP_FILE before this runs, so every row it holds has its file here.
 */
export async function backupInstance(
  source: BackupSource,
  dir: string,
  onFile: (key: string, outcome: string) => void = () => {},
): Promise<BackupReport> {
  // The first folder this made (undefined when `dir` was there): removed again if it fails.
  const made = await mkdir(dir, { recursive: true, mode: 0o700 });
  const there = await readdir(dir);
  if (there.includes(BACKUP_DATABASE_FILE) || there.includes(BACKUP_FILES_FOLDER)) {
    throw new Error(`${dir} already holds a backup: back up into a new folder`);
  }
  const databaseFile = path.join(dir, BACKUP_DATABASE_FILE);
  const storage = withDeadline(source.storage, source.callTimeoutMs);
  try {
    // A bucket that cannot be reached fails the backup before anything is copied.
    await storage.check();
    const pages = source.sqliteFile
      ? await backupSqliteFile(source.sqliteFile, databaseFile)
      : null;
    const files = new LocalAudioStorage(path.join(dir, BACKUP_FILES_FOLDER));
    const copied = await copyAudio(storage, files, onFile);
    if (!source.sqliteFile) return { pages, files: copied, leftOut: 0, check: null };

    const copy = await source.openCopy(databaseFile, files);
    try {
      const check = await checkInstance(copy, { repair: false });
      for (const file of check.filesWithoutRows) await files.delete(file.key);
      return { pages, files: copied, leftOut: check.filesWithoutRows.length, check };
    } finally {
      await copy.close();
    }
  } catch (error) {
    // No partial backup is left to be mistaken for one: what this run wrote goes (the operator's
    // PostgreSQL dump, there before, stays).
    if (made !== undefined) await rm(made, { recursive: true, force: true });
    else {
      await rm(databaseFile, { force: true });
      await rm(path.join(dir, BACKUP_FILES_FOLDER), { recursive: true, force: true });
    }
    throw error;
  }
}

/** `promise`, or StorageUnavailableError once `ms` have passed without it settling. */
async function within<T>(promise: Promise<T>, ms: number, storage: AudioStorage): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StorageUnavailableError(`${storage.description} did not answer within ${ms} ms`),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The storage with a deadline on its calls (check, size, each page of the listing): the client's
 * own timeouts end a silent connection, not one that trickles. Reads and writes keep the
 * client's idle timeout (a large file may take long while moving).
 */
export function withDeadline(storage: AudioStorage, ms: number): AudioStorage {
  return Object.assign(Object.create(storage) as AudioStorage, {
    check: () => within(storage.check(), ms, storage),
    size: (key: string) => within(storage.size(key), ms, storage),
    list: () => ({
      [Symbol.asyncIterator]() {
        const inner = storage.list()[Symbol.asyncIterator]();
        return {
          next: () => within(inner.next(), ms, storage),
          return: async () => (await inner.return?.()) ?? { done: true as const, value: undefined },
        };
      },
    }),
  });
}

/** Rows of the copy whose file is missing and that matter (not a never-attached upload). */
export function missingFiles(report: BackupReport): FileReference[] {
  return report.check?.rowsWithoutFiles.filter((row) => !row.disposable) ?? [];
}
