import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { backupSqliteFile } from "../db/sqlite-backup";
import type { AudioStorage } from "../storage/audio-storage";
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
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const there = await readdir(dir);
  if (there.includes(BACKUP_DATABASE_FILE) || there.includes(BACKUP_FILES_FOLDER)) {
    throw new Error(`${dir} already holds a backup: back up into a new folder`);
  }
  const databaseFile = path.join(dir, BACKUP_DATABASE_FILE);
  const pages = source.sqliteFile ? await backupSqliteFile(source.sqliteFile, databaseFile) : null;
  const files = new LocalAudioStorage(path.join(dir, BACKUP_FILES_FOLDER));
  const copied = await copyAudio(source.storage, files, onFile);
  if (!source.sqliteFile) return { pages, files: copied, leftOut: 0, check: null };

  const copy = await source.openCopy(databaseFile, files);
  try {
    const check = await checkInstance(copy, { repair: false });
    for (const file of check.filesWithoutRows) await files.delete(file.key);
    return { pages, files: copied, leftOut: check.filesWithoutRows.length, check };
  } finally {
    await copy.close();
  }
}

/** Rows of the copy whose file is missing and that matter (not a never-attached upload). */
export function missingFiles(report: BackupReport): FileReference[] {
  return report.check?.rowsWithoutFiles.filter((row) => !row.disposable) ?? [];
}
