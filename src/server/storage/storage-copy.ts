import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import { type Config, loadConfig } from "../config";
import type { AudioStorage } from "./audio-storage";
import { LocalAudioStorage } from "./local-storage";
import { createAudioStorage } from "./storage-factory";

export interface CopyReport {
  copied: number;
  /** Already in the target with the same size and checksum (an earlier, interrupted run). */
  alreadyThere: number;
  failed: { key: string; reason: string }[];
  bytesCopied: number;
}

async function sha256Of(storage: AudioStorage, key: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Copies every stored recording from `source` to `target`, one at a time (memory stays flat).
 * Resumable: a file already in the target with the same size and SHA-256 is left alone, and a
 * write is atomic, so an interrupted run leaves no partial file. Each copy is verified by reading
 * it back (size and SHA-256); a mismatch deletes the copy and is reported. Never deletes from the
 * source.
 */
export async function copyAudio(
  source: AudioStorage,
  target: AudioStorage,
  onProgress: (key: string, outcome: "copied" | "already there" | "failed") => void = () => {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, alreadyThere: 0, failed: [], bytesCopied: 0 };
  for await (const file of source.list()) {
    try {
      if ((await target.size(file.key)) === file.bytes) {
        const [there, here] = await Promise.all([
          sha256Of(target, file.key),
          sha256Of(source, file.key),
        ]);
        if (there === here) {
          report.alreadyThere += 1;
          onProgress(file.key, "already there");
          continue;
        }
      }
      const hash = createHash("sha256");
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const reading = source.read(file.key);
      reading.on("error", (error) => hashing.destroy(error));
      const { bytes } = await target.write(file.key, reading.pipe(hashing));
      const expected = hash.digest("hex");
      const storedBytes = await target.size(file.key);
      const stored = storedBytes === bytes ? await sha256Of(target, file.key) : null;
      if (bytes !== file.bytes || storedBytes !== bytes || stored !== expected) {
        await target.delete(file.key);
        throw new Error(
          `verification failed: ${file.bytes} bytes listed, ${bytes} read, ${storedBytes ?? "none"} stored`,
        );
      }
      report.copied += 1;
      report.bytesCopied += bytes;
      onProgress(file.key, "copied");
    } catch (error) {
      report.failed.push({ key: file.key, reason: (error as Error).message });
      onProgress(file.key, "failed");
    }
  }
  return report;
}

/**
 * The storage a command-line argument names: `file:` (DATA_DIR/audio), `file:/some/folder`, or
 * `s3://bucket/prefix` with the S3_* settings from the environment.
 */
export function storageFromArgument(argument: string, env: NodeJS.ProcessEnv): AudioStorage {
  if (argument.startsWith("file:") && argument.length > "file:".length) {
    return new LocalAudioStorage(argument.slice("file:".length));
  }
  const config: Config = loadConfig({ ...env, STORAGE_URL: argument });
  return createAudioStorage(config.storage);
}
