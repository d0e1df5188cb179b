import type { DatabaseHandle } from "../db/connection";
import { databaseProblems } from "../db/integrity-check";
import type { AudioStorage, StoredFile } from "../storage/audio-storage";
import type { FileReference, StoredFileOwner } from "../storage/stored-files";

export interface InstanceCheck {
  database: DatabaseHandle;
  storage: AudioStorage;
  owners: readonly StoredFileOwner[];
}

export interface CheckReport {
  /** What the database reports wrong with itself; empty when sound. */
  databaseProblems: string[];
  /** Stored files no row names (left by an interrupted upload or deletion): space, not data. */
  filesWithoutRows: StoredFile[];
  /** Rows whose file is missing: a memory or comment that cannot be heard. */
  rowsWithoutFiles: FileReference[];
  /** With `repair`: what was removed. */
  repaired: { files: number; rows: number } | null;
}

/**
 * Whether nothing anyone sees is lost: a sound database, and a file for every row that matters.
 * Files without rows and never-attached uploads without a file cost nothing but space.
 */
export function isSound(report: CheckReport): boolean {
  return (
    report.databaseProblems.length === 0 && report.rowsWithoutFiles.every((row) => row.disposable)
  );
}

async function referencedKeys(owners: readonly StoredFileOwner[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const owner of owners)
    for await (const reference of owner.references()) keys.add(reference.key);
  return keys;
}

/**
 * Compares the database with the storage through the storage interface, so every kind of stored
 * file is covered. With `repair`, files no row names are deleted, and so are rows of uploads never
 * attached whose file is missing; a memory's or comment's missing file is only reported (restore
 * it from a backup).
 */
export async function checkInstance(
  { database, storage, owners }: InstanceCheck,
  options: { repair: boolean },
): Promise<CheckReport> {
  const problems = await databaseProblems(database);
  // Files first: an upload stores its file before its row, so a file listed here whose row is
  // written meanwhile is found by the walk of the rows below.
  const files = new Map<string, StoredFile>();
  for await (const file of storage.list()) files.set(file.key, file);
  const named = new Set<string>();
  const rowsWithoutFiles: FileReference[] = [];
  for (const owner of owners) {
    for await (const reference of owner.references()) {
      named.add(reference.key);
      if (!files.has(reference.key)) rowsWithoutFiles.push(reference);
    }
  }
  const filesWithoutRows = [...files.values()].filter((file) => !named.has(file.key));
  const report: CheckReport = {
    databaseProblems: problems,
    filesWithoutRows,
    rowsWithoutFiles,
    repaired: null,
  };
  if (!options.repair) return report;

  // Walked again just before deleting: a file whose row was written since the first walk stays.
  const stillNamed = filesWithoutRows.length > 0 ? await referencedKeys(owners) : new Set();
  let filesRemoved = 0;
  for (const file of filesWithoutRows) {
    if (stillNamed.has(file.key)) continue;
    await storage.delete(file.key);
    filesRemoved += 1;
  }
  const disposable = rowsWithoutFiles.filter((row) => row.disposable).map((row) => row.key);
  let rows = 0;
  for (const owner of owners) rows += await owner.deleteDisposable(disposable);
  report.repaired = { files: filesRemoved, rows };
  return report;
}
