import { createReadStream, createWriteStream } from "node:fs";
import { access, constants, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { newId } from "../ids";
import type { AudioStorage, ByteRange } from "./audio-storage";

const SAFE_KEY = /^[A-Za-z0-9_-]+(\.[a-z0-9]+)?$/;

/** Audio files in one folder, written to a temporary name and renamed when complete. */
export class LocalAudioStorage implements AudioStorage {
  constructor(private readonly dir: string) {}

  private pathFor(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(this.dir, key);
  }

  async write(key: string, source: Readable): Promise<{ bytes: number }> {
    const finalPath = this.pathFor(key);
    const tempPath = path.join(this.dir, `.tmp-${newId()}`);
    await mkdir(this.dir, { recursive: true });
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(tempPath, { flags: "wx" }));
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
    try {
      return (await stat(this.pathFor(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathFor(key), { force: true });
  }

  async checkWritable(): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true });
      await access(this.dir, constants.W_OK);
      const probe = path.join(this.dir, `.probe-${newId()}`);
      await writeFile(probe, "");
      await rm(probe, { force: true });
    } catch (error) {
      throw new Error(
        `Audio folder ${this.dir} is not writable: ${(error as Error).message}. Check DATA_DIR.`,
      );
    }
  }
}
