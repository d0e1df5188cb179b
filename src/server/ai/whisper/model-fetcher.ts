import { mkdir, open, readFile, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import {
  downloadModel,
  fileExists,
  type ModelEntry,
  type ModelName,
  modelsDir,
} from "./whisper-models";

/** The log calls the fetcher makes; a Fastify (pino) logger fits. */
export interface FetcherLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface ModelFetcherOptions {
  name: ModelName;
  /** The pinned size and checksums the download must match (WHISPER_MODELS[name]). */
  entry: ModelEntry;
  dataDir: string;
  host: string;
  log: FetcherLog;
  /** The wait after the first failure; it doubles after each further one, up to 6 hours. */
  retryMs?: number;
}

/** What one run did. */
export type FetchOutcome = "present" | "downloaded" | "busy" | "waiting" | "failed";

const MAX_RETRY_MS = 6 * 3_600_000;
/**
 * A lock not touched for this long was left by a stopped instance (a running download touches
 * it); one whose process on this machine is gone is taken over at once.
 */
const STALE_LOCK_MS = 10 * 60_000;
const TOUCH_LOCK_MS = 60_000;

/**
 * Whether the lock was left by a process of this machine that no longer runs (a download killed
 * half-way). A lock of another machine sharing the folder, or without a holder, cannot be told:
 * it waits to go stale.
 */
async function holderIsGone(lockFile: string): Promise<boolean> {
  const [pidLine, host] = (await readFile(lockFile, "utf8").catch(() => "")).split("\n");
  const pid = Number(pidLine);
  if (!Number.isSafeInteger(pid) || pid <= 0 || host !== hostname()) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

/**
 * Fetches the chosen Whisper model into DATA_DIR/models in the background, so that a first start
 * with internet needs no manual step. Runs as a task of the instance's Scheduler: each run does
 * nothing once the file is there, waits out its backoff after a failure, and otherwise downloads
 * under a lock file (instances sharing the folder download once). The download is checked against
 * the pinned size and SHA-256 before it is renamed into place, so a partial or altered file is never
 * loaded; the local transcriber uses Whisper from the next recording on.
 */
export class ModelFetcher {
  private failures = 0;
  private retryAt = 0;
  private done = false;
  private announced = false;
  private toldBusy = false;

  constructor(private readonly options: ModelFetcherOptions) {}

  private get target(): string {
    return path.join(modelsDir(this.options.dataDir), this.options.entry.file);
  }

  private get lockFile(): string {
    return path.join(modelsDir(this.options.dataDir), `.${this.options.entry.file}.lock`);
  }

  async runOnce(now: Date, signal?: AbortSignal): Promise<FetchOutcome> {
    if (this.done) return "present";
    if (await fileExists(this.target)) {
      this.done = true;
      if (this.announced) this.options.log.info(`Whisper model ready: ${this.target}`);
      return "present";
    }
    if (now.getTime() < this.retryAt) return "waiting";
    const { entry, host, log } = this.options;
    if (!this.announced) {
      this.announced = true;
      log.info(
        `Whisper model ${this.options.name} is not in ${modelsDir(this.options.dataDir)} yet: downloading ${entry.file} (${megabytes(entry.bytes)}) from ${host} in the background; recordings are transcribed with pocketsphinx until it is there`,
      );
    }
    if (!(await this.lock())) {
      if (!this.toldBusy) log.info(`Another instance is downloading ${entry.file}; waiting for it`);
      this.toldBusy = true;
      return "busy";
    }
    try {
      let shown = 0;
      let touched = Date.now();
      await downloadModel({
        name: this.options.name,
        entry,
        dataDir: this.options.dataDir,
        host,
        signal,
        onProgress: (received, total) => {
          const quarter = Math.floor((received / total) * 4) * 25;
          if (quarter > shown && quarter < 100) {
            shown = quarter;
            log.info(`Whisper model download: ${quarter}% of ${megabytes(total)}`);
          }
          if (Date.now() - touched > TOUCH_LOCK_MS) {
            touched = Date.now();
            const at = new Date();
            utimes(this.lockFile, at, at).catch(() => {});
          }
        },
      });
      this.done = true;
      this.failures = 0;
      log.info(
        `Whisper model downloaded and checked (SHA-256 ${entry.sha256}): new recordings are transcribed with Whisper`,
      );
      return "downloaded";
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      this.failures += 1;
      const wait = Math.min(
        (this.options.retryMs ?? 60_000) * 2 ** (this.failures - 1),
        MAX_RETRY_MS,
      );
      this.retryAt = now.getTime() + wait;
      const reason = error instanceof Error ? error.message : String(error);
      const cause =
        error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
      log.warn(
        `Could not download the Whisper model: ${reason}${cause}. Retrying in ${Math.round(wait / 60_000) || 1} min. To place it by hand, fetch ${host.replace(/\/$/, "")}/${entry.file} on a machine with internet, check it is ${entry.bytes} bytes with SHA-256 ${entry.sha256}, and copy it to ${this.target}; it is used from the next recording, without a restart`,
      );
      return "failed";
    } finally {
      await rm(this.lockFile, { force: true });
    }
  }

  /** Takes the lock file; false when another instance holds it. A stale lock is taken over. */
  private async lock(): Promise<boolean> {
    await mkdir(modelsDir(this.options.dataDir), { recursive: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(this.lockFile, "wx", 0o600);
        // Who holds it: a later start on this machine takes over at once when that process is gone.
        await handle.writeFile(`${process.pid}\n${hostname()}\n`);
        await handle.close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const info = await stat(this.lockFile).catch(() => null);
        const fresh = info && Date.now() - info.mtimeMs < STALE_LOCK_MS;
        if (fresh && !(await holderIsGone(this.lockFile))) return false;
        await rm(this.lockFile, { force: true });
      }
    }
    return false;
  }
}
