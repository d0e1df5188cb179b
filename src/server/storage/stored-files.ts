/** One row that names a file in the storage. */
export interface FileReference {
  key: string;
  /** What the row is, for the operator's report (`audio <id> of memory:<id>`). */
  label: string;
  /**
   * True when deleting the row loses nothing anyone sees (an upload never attached to a memory or
   * comment): `check --repair` deletes such a row when its file is missing.
   */
  disposable: boolean;
}

/**
 * The rows of one kind of stored file (audio uploads; a feature storing another kind of file adds
 * its own in `compose.ts`). The instance check and backup walk every owner: a file no owner names
 * counts as a file without a row, and `check --repair` deletes it.
 */
export interface StoredFileOwner {
  /** Every row naming a stored file, in pages (memory stays flat on a large server). */
  references(): AsyncIterable<FileReference>;
  /** Deletes the disposable rows naming these keys (rows attached meanwhile stay); how many went. */
  deleteDisposable(keys: readonly string[]): Promise<number>;
}
