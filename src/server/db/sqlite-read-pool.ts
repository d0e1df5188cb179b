import { Worker } from "node:worker_threads";
import SqliteDatabase from "better-sqlite3";

/** Read workers when nothing says otherwise: room for a slow read beside quick ones on 2 cores. */
export const DEFAULT_SQLITE_READ_WORKERS = 2;

/**
 * The read workers' niceness (Linux, per thread): a long read yields its core to the main thread,
 * so requests answered there are not kept waiting behind it on a busy machine (issue 18).
 */
export const READ_WORKER_NICENESS = 10;

/** How a pool of SQLite read workers is set up. */
export interface SqliteReadPoolOptions {
  /** The database file; it must exist and be in WAL mode (the main connection made it so). */
  file: string;
  /** How many worker threads, each with its own read-only connection (at least 1). */
  size: number;
  statementCacheSize: number;
  busyTimeoutMs: number;
}

type ErrorData = { name: string; message: string; code?: string };

type WorkerReply =
  | { ready: true }
  | { failed: ErrorData }
  | { id: number; rows: unknown[] }
  | { id: number; error: ErrorData };

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

interface ReadWorker {
  thread: Worker;
  pending: Map<number, Pending>;
  ready: boolean;
  /** What the thread threw, if it died of an uncaught error (said in the rejections). */
  failure?: Error;
}

// The same file beside this module in src/ (tests, tsx) and beside main.js in dist/server/.
const WORKER_URL = new URL("./sqlite-read-worker.js", import.meta.url);

/**
 * Worker threads that run read queries on their own read-only connections to one SQLite file, so
 * a long read never blocks the event loop (ADR 0026). Each worker runs one query at a time; a
 * query goes to the worker with the fewest queries waiting. A worker that dies rejects what it
 * was given and is replaced. The threads never keep the process alive while idle.
 */
export class SqliteReadPool {
  private readonly workers: ReadWorker[] = [];
  private nextId = 1;
  private closing = false;
  /** Answers received and not yet handed to their callers: one is handed over per loop turn. */
  private readonly answers: (() => void)[] = [];
  private handingOver = false;

  private constructor(private readonly options: SqliteReadPoolOptions) {}

  /** Starts the workers and waits until each has opened the file (a bad file fails here). */
  static async start(options: SqliteReadPoolOptions): Promise<SqliteReadPool> {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new Error(`a SQLite read pool needs at least 1 worker, not ${options.size}`);
    }
    const pool = new SqliteReadPool(options);
    const started = Array.from({ length: options.size }, () => pool.spawn());
    try {
      await Promise.all(started);
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** How many workers are running or starting (0 once all died without a replacement). */
  get size(): number {
    return this.workers.length;
  }

  /** The live worker threads (for health checks and tests). */
  get threads(): readonly Worker[] {
    return this.workers.map((worker) => worker.thread);
  }

  /** Runs one read-only statement on a worker and resolves with its rows. */
  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closing) return Promise.reject(new Error("the SQLite read pool is closed"));
    let target: ReadWorker | undefined;
    for (const worker of this.workers) {
      if (!target || worker.pending.size < target.pending.size) target = worker;
    }
    if (!target) return Promise.reject(new Error("no SQLite read worker is running"));
    const worker = target;
    const id = this.nextId++;
    return new Promise<unknown[]>((resolve, reject) => {
      try {
        worker.thread.postMessage({ id, sql, parameters });
      } catch (error) {
        // A parameter that cannot be copied to another thread (DataCloneError).
        reject(error);
        return;
      }
      // Referenced only while it has work, so an idle pool never keeps the process alive but
      // a script awaiting a read is not cut short.
      if (worker.pending.size === 0) worker.thread.ref();
      worker.pending.set(id, { resolve, reject });
    });
  }

  /** Stops every worker and waits until each has exited; their waiting queries are rejected. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.thread.terminate()));
  }

  /**
   * Node delivers every answer that has arrived in one turn of the event loop, and each caller's
   * continuation (ranking a search's candidates, writing its response) would run right after its
   * answer, back to back: with ten requests waiting, timers and sockets waited for all ten. Each
   * answer is instead handed over in a turn of its own (setImmediate, one per turn), so the
   * longest wait for anything else is one request's own work (issue 18).
   */
  private handOver(answer: () => void): void {
    this.answers.push(answer);
    if (this.handingOver) return;
    this.handingOver = true;
    const next = () => {
      this.answers.shift()?.();
      if (this.answers.length > 0) setImmediate(next);
      else this.handingOver = false;
    };
    setImmediate(next);
  }
  private spawn(): Promise<void> {
    const { file, statementCacheSize, busyTimeoutMs } = this.options;
    const worker: ReadWorker = {
      thread: new Worker(WORKER_URL, {
        workerData: {
          file,
          statementCacheSize,
          busyTimeoutMs,
          niceness: READ_WORKER_NICENESS,
        },
      }),
      pending: new Map(),
      ready: false,
    };
    worker.thread.unref();
    this.workers.push(worker);
    return new Promise<void>((resolveReady, rejectReady) => {
      worker.thread.on("message", (reply: WorkerReply) => {
        if ("ready" in reply) {
          worker.ready = true;
          resolveReady();
          return;
        }
        if ("failed" in reply) {
          worker.failure = rebuildError(reply.failed);
          return;
        }
        const pending = worker.pending.get(reply.id);
        if (!pending) return;
        worker.pending.delete(reply.id);
        if (worker.pending.size === 0) worker.thread.unref();
        this.handOver(() => {
          if ("rows" in reply) pending.resolve(restoreBuffers(reply.rows));
          else pending.reject(rebuildError(reply.error));
        });
      });
      worker.thread.on("error", (error) => {
        worker.failure = error;
      });
      worker.thread.on("exit", (code) => {
        const index = this.workers.indexOf(worker);
        if (index >= 0) this.workers.splice(index, 1);
        const why = this.closing
          ? "the database was closed"
          : `its worker thread stopped (exit code ${code}${worker.failure ? `: ${worker.failure.message}` : ""})`;
        const stopped = new Error(`SQLite read not answered: ${why}`);
        for (const pending of worker.pending.values()) pending.reject(stopped);
        worker.pending.clear();
        if (!worker.ready) {
          rejectReady(worker.failure ?? stopped);
          return;
        }
        // One that never started (the file is gone, say) is not replaced: it would fail again.
        if (!this.closing) this.spawn().catch(() => undefined);
      });
    });
  }
}

/** The error the worker caught, as the same kind of error the main connection would throw. */
function rebuildError(error: ErrorData): Error {
  if (error.name === "SqliteError" && error.code) {
    return new SqliteDatabase.SqliteError(error.message, error.code);
  }
  // better-sqlite3 throws these for bad parameters (too few, a type it cannot bind).
  if (error.name === "RangeError") return new RangeError(error.message);
  if (error.name === "TypeError") return new TypeError(error.message);
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}

/**
 * A BLOB crosses threads as a plain Uint8Array; the main connection gives a Buffer, so rows from
 * a worker get Buffers back (the copy is shared, not duplicated).
 */
function restoreBuffers(rows: unknown[]): unknown[] {
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
        record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      }
    }
  }
  return rows;
}
