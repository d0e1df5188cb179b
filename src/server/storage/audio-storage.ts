import type { Readable } from "node:stream";

export interface ByteRange {
  start: number;
  end: number;
}

/** One stored file, as listed by `AudioStorage.list` (the storage copy command walks these). */
export interface StoredFile {
  key: string;
  bytes: number;
}

/**
 * The storage could not be reached or did not answer within its timeouts (a stopped or hung
 * bucket, a dropped connection): a request answers 503 with the product's message, a job is
 * retried by the queue. A refusal by the storage itself (a missing file, access denied) is not one.
 */
export class StorageUnavailableError extends Error {
  override name = "StorageUnavailableError";
}

/** Storage keys are made by the server: a base of letters, digits, `_` or `-`, and an extension. */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\.[a-z0-9]+)?$/;

/** Throws unless `key` is a key the server could have made (never a path or a prefix trick). */
export function assertSafeKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key);
}

/**
 * Where audio bytes live: a local folder or an S3-compatible bucket, chosen by STORAGE_URL. Keys
 * are server-generated. Every instance reaches the same bytes through it, so nothing about a
 * stored file lives in one process.
 */
export interface AudioStorage {
  /** Where it is, for logs and messages (a folder path or `s3://bucket/prefix`). */
  readonly description: string;
  /**
   * Stores the stream under `key` atomically: nothing is visible under `key` unless complete. When
   * `source` fails (too large, not audio), that error is thrown and nothing is left behind.
   */
  write(key: string, source: Readable): Promise<{ bytes: number }>;
  /** A stream of the whole file or of an inclusive byte range; it errors when the file is missing. */
  read(key: string, range?: ByteRange): Readable;
  /** The size in bytes, or null when missing. */
  size(key: string): Promise<number | null>;
  /** Deletes the file; deleting a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored file (never temporary ones), in no particular order. */
  list(): AsyncIterable<StoredFile>;
  /** Throws when the storage cannot be written, naming the setting to fix (checked at start-up). */
  checkWritable(): Promise<void>;
  /**
   * Throws when the storage is unreachable. Cheap, read-only and with no side effects: the health
   * check calls it on every probe of a load balancer (checkWritable writes, and may sweep).
   */
  check(): Promise<void>;
  /**
   * Removes what interrupted writes left behind (temporary files, unfinished multipart uploads)
   * older than the grace period at `now`; returns how many. Safe on several instances at once.
   */
  sweepTemporaryFiles(now: Date): Promise<number>;
}
