import { createReadStream, createWriteStream } from "node:fs";
import {
  access,
  chmod,
  constants,
  mkdir,
  readdir,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { newId } from "../ids";
import {
  type AudioStorage,
  assertSafeKey,
  type ByteRange,
  isSafeKey,
  type StoredFile,
} from "./audio-storage";

/** Names of files still being written (uploads, the writability probe): never a stored key. */
const TEMPORARY_FILE = /^\.(tmp|probe)-/;
/** The audio folder and its files are for the service's user only. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/**
 * A temporary file untouched this long is left over from a crash. Its mtime moves with every chunk
 * written, so a live upload (even a slow one) never looks this old; a second instance sharing the
 * folder during a rolling restart keeps its uploads.
 */
export const TEMPORARY_FILE_GRACE_MS = 10 * 60 * 1000;

/**
 * Audio files in one folder, written to a temporary name and renamed when complete. The folder is
 * 0700 and files 0600: recordings are private to the service's user.
 */
export class LocalAudioStorage implements AudioStorage {
  constructor(private readonly dir: string) {}

  get description(): string {
    return this.dir;
  }

  private pathFor(key: string): string {
    return path.join(this.dir, assertSafeKey(key));
  }

  async write(key: string, source: Readable): Promise<{ bytes: number }> {
    const finalPath = this.pathFor(key);
    const tempPath = path.join(this.dir, `.tmp-${newId()}`);
    await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        source,
        counter,
        createWriteStream(tempPath, { flags: "wx", mode: FILE_MODE }),
      );
      await rename(tempPath, finalPath);
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    return { bytes };
  }

  read(key: string, range?: ByteRange): Readable {
    return createReadStream(this.pathFor(key), range ? { start: range.start, end: range.end } : {});
  }

  async size(key: string): Promise<number | null> {
    const file = this.pathFor(key);
    try {
      return (await stat(file)).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathFor(key), { force: true });
  }

  /** The folder's file names; none while it does not exist. */
  private async names(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  async *list(): AsyncIterable<StoredFile> {
    for (const name of (await this.names()).sort()) {
      if (!isSafeKey(name)) continue;
      const bytes = await this.size(name);
      if (bytes !== null) yield { key: name, bytes };
    }
  }

  /**
   * Creates the folder (0700), tightens an existing one, checks it can be written, and removes
   * temporary files a crash left behind. Called at start-up.
   */
  async checkWritable(): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
      await tightenMode(this.dir, DIR_MODE);
      await access(this.dir, constants.W_OK);
      const probe = path.join(this.dir, `.probe-${newId()}`);
      await writeFile(probe, "", { mode: FILE_MODE });
      await rm(probe, { force: true });
    } catch (error) {
      throw new Error(
        `Audio folder ${this.dir} is not writable: ${(error as Error).message}. Check DATA_DIR.`,
      );
    }
    await this.sweepTemporaryFiles(new Date());
  }

  /** The folder exists, is a folder, and this process may write to it (one stat, one access). */
  async check(): Promise<void> {
    const info = await stat(this.dir);
    if (!info.isDirectory()) throw new Error(`Audio folder ${this.dir} is not a folder`);
    await access(this.dir, constants.R_OK | constants.W_OK | constants.X_OK);
  }

  /**
   * Deletes temporary files (partial uploads of a crashed process) last written more than
   * TEMPORARY_FILE_GRACE_MS before `now`; returns how many. Safe to run on several instances at once.
   */
  async sweepTemporaryFiles(now: Date): Promise<number> {
    const cutoff = now.getTime() - TEMPORARY_FILE_GRACE_MS;
    let removed = 0;
    for (const name of await this.names()) {
      if (!TEMPORARY_FILE.test(name)) continue;
      const file = path.join(this.dir, name);
      try {
        if ((await stat(file)).mtimeMs > cutoff) continue;
        await rm(file);
        removed += 1;
      } catch (error) {
        // Renamed or removed meanwhile (its upload finished, or another instance swept it).
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    return removed;
  }
}

/**
 * Sets `mode` on a folder created by an earlier version (0755). Not being its owner (a mounted
 * volume) is tolerated: the folder still works, and its owner decides who may read it.
 */
async function tightenMode(target: string, mode: number): Promise<void> {
  try {
    await chmod(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
  }
}
