import type { Readable } from "node:stream";

export interface ByteRange {
  start: number;
  end: number;
}

/** Where audio bytes live (a local folder now, object storage later). Keys are server-generated. */
export interface AudioStorage {
  /** Stores the stream under `key` atomically: nothing is visible under `key` unless complete. */
  write(key: string, source: Readable): Promise<{ bytes: number }>;
  /** A stream of the whole file or of an inclusive byte range. */
  read(key: string, range?: ByteRange): Readable;
  /** The size in bytes, or null when missing. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Throws when the storage cannot be written (checked at start-up). */
  checkWritable(): Promise<void>;
  /**
   * Throws when the storage is unreachable. Cheap, read-only and with no side effects: the health
   * check calls it on every probe of a load balancer (checkWritable writes, and may sweep).
   */
  check(): Promise<void>;
}
