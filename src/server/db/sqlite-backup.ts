import SqliteDatabase from "better-sqlite3";

/**
 * Copies the SQLite database in `file` to `destination` while the server keeps writing to it:
 * SQLite's online backup, from a read-only connection of its own. All pages go in one step, which
 * reads one snapshot (in WAL mode writers go on meanwhile); copied in small steps, every write by
 * the server between two steps would restart the copy. Returns the number of pages copied.
 */
export async function backupSqliteFile(file: string, destination: string): Promise<number> {
  const source = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await source.backup(destination, {
      progress: ({ totalPages: all }) => all,
    });
    return totalPages;
  } finally {
    source.close();
  }
}
