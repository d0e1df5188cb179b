import type { FastifyBaseLogger } from "fastify";
import { newId } from "../ids";
import { isJobKind, type JobKind, validateJobTarget } from "./job-kinds";
import type { Job, JobsRepo } from "./jobs.repo";

/**
 * Why a job's signal was aborted: its lease was lost (another worker may hold the job now) or the
 * worker is stopping. A handler throws it (`signal.throwIfAborted()`) instead of writing results.
 */
export class JobAbortedError extends Error {
  override name = "AbortError";
}

/** What a worker does for one kind of job. */
export interface JobHandler {
  /**
   * Does the work for `targetId`; throwing means "try again later" (with backoff), and a date
   * "done for now, run again then". Once `signal` is aborted the job is no longer this worker's to
   * finish: pass it to provider calls and check it before every write, so a worker that lost its
   * lease stops and never writes results.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: most handlers return nothing (Promise<void>)
  run(targetId: string, job: Job, signal: AbortSignal): Promise<void | Date>;
  /** Called once when the job has failed `maxAttempts` times and will not run again. */
  giveUp?(targetId: string, error: Error): Promise<void>;
}

/**
 * How a taken job ended: done; failed and queued again (`retried`); failed for good; `abandoned`
 * (its lease was lost or the worker stopped); `dropped` (a payload or kind no handler takes).
 */
export type JobOutcome = "done" | "retried" | "failed" | "abandoned" | "dropped";

/** Told about every job the worker takes (the metrics count and time them). */
export interface JobObserver {
  jobFinished(kind: string, outcome: JobOutcome, seconds: number): void;
}

export interface WorkerOptions {
  concurrency: number;
  /** How long a claim lasts without a heartbeat; a crashed worker's job is retaken after it. */
  leaseMs?: number;
  /** How often to look for work when idle. */
  pollMs?: number;
  maxAttempts?: number;
  /** First retry delay; doubled per attempt. */
  backoffMs?: number;
  workerId?: string;
  logger?: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  observer?: JobObserver;
}

const silent = { info() {}, warn() {}, error() {} };

/** Polls the queue and runs jobs, `concurrency` at a time, keeping their leases alive. */
export class JobWorker {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly logger: NonNullable<WorkerOptions["logger"]>;
  private readonly observer: JobObserver | undefined;
  private running = false;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();
  /** The signals of the jobs in hand, aborted when `stop` runs out of grace. */
  private inFlight = new Set<AbortController>();

  constructor(
    private readonly repo: JobsRepo,
    private readonly handlers: Partial<Record<JobKind, JobHandler>>,
    private readonly options: WorkerOptions,
  ) {
    this.workerId = options.workerId ?? `worker-${newId()}`;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoffMs = options.backoffMs ?? 5_000;
    this.logger = options.logger ?? silent;
    this.observer = options.observer;
  }

  start(): void {
    if (this.running || this.options.concurrency <= 0) return;
    this.running = true;
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
  }

  /**
   * Stops taking work and waits up to `graceMs` for the jobs in hand. A job still running after
   * that (an AI call may take minutes) has its signal aborted and is left to its lease: another
   * worker or the next start takes it again.
   */
  async stop(graceMs = 5_000): Promise<void> {
    this.running = false;
    this.notify();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(this.loops),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const controller of this.inFlight) {
      controller.abort(new JobAbortedError("the worker stopped before the job finished"));
    }
    this.loops = [];
  }

  /** Wakes idle loops now (a job was just queued in this process). */
  notify(): void {
    for (const wake of this.wakers) wake();
  }

  /** Runs due jobs until none is left (tests and one-off use). Returns how many ran. */
  async drain(): Promise<number> {
    let count = 0;
    while (await this.runOne()) count++;
    return count;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOne();
      } catch (error) {
        this.logger.error({ err: error }, "job queue error");
      }
      if (!worked && this.running) await this.sleep(this.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /** Claims and runs one job; false when nothing was due. */
  async runOne(): Promise<boolean> {
    const claimedAt = Date.now();
    const job = await this.repo.claim(this.workerId, this.leaseMs, new Date(claimedAt));
    if (!job) return false;
    const finished = (outcome: JobOutcome) =>
      this.observer?.jobFinished(job.kind, outcome, (Date.now() - claimedAt) / 1000);
    const handler = isJobKind(job.kind) ? this.handlers[job.kind] : undefined;
    let targetId: string;
    try {
      targetId = validateJobTarget(job.kind, job.target_id);
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
    } catch (error) {
      // A payload that fails validation when taken is dropped, never handed to a handler.
      await this.repo.fail(job.id, this.workerId, (error as Error).message, null);
      this.logger.error({ job: job.id, err: error }, "invalid job dropped");
      finished("dropped");
      return true;
    }
    if (job.attempts > this.maxAttempts) {
      // Taken again after its lease expired too many times: the work keeps killing its worker.
      const error = new Error(job.last_error ?? "The job was interrupted too many times");
      await this.repo.fail(job.id, this.workerId, error.message, null);
      await handler.giveUp?.(targetId, error).catch(() => undefined);
      finished("failed");
      return true;
    }
    const controller = new AbortController();
    const { signal } = controller;
    this.inFlight.add(controller);
    const stopHeartbeat = this.keepLease(job, claimedAt + this.leaseMs, controller);
    try {
      const again = await handler.run(targetId, job, signal);
      if (!(await this.repo.complete(job.id, this.workerId, again ?? undefined))) {
        this.logger.warn({ job: job.id, kind: job.kind }, "job finished after its lease was lost");
      }
      finished("done");
    } catch (err) {
      if (signal.aborted) {
        // Not a failure of the job: another worker holds it now (or will, once the lease lapses),
        // so this one records nothing, neither a failure nor a retry.
        const reason =
          signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
        this.logger.warn({ job: job.id, kind: job.kind, reason }, "job abandoned");
        finished("abandoned");
        return true;
      }
      const error = err instanceof Error ? err : new Error(String(err));
      const finalAttempt = job.attempts >= this.maxAttempts;
      const retryAt = finalAttempt
        ? null
        : new Date(Date.now() + this.backoffMs * 2 ** (job.attempts - 1));
      this.logger.warn({ job: job.id, kind: job.kind, err: error, retryAt }, "job failed");
      await this.repo.fail(job.id, this.workerId, error.message, retryAt);
      if (finalAttempt) await handler.giveUp?.(targetId, error).catch(() => undefined);
      finished(finalAttempt ? "failed" : "retried");
    } finally {
      stopHeartbeat();
      this.inFlight.delete(controller);
    }
    return true;
  }

  /**
   * Renews the job's lease every third of it. Aborts `controller` when a renewal finds the job no
   * longer this worker's (the guarded update changed no row: the lease lapsed and another worker
   * took it), or when the lease's end passes with no renewal getting through (a hung connection,
   * a stalled process): from then on another worker may take it at any moment. Returns the stop.
   */
  private keepLease(job: Job, leaseEnds: number, controller: AbortController): () => void {
    let stopped = false;
    const lose = (why: string) => {
      if (!stopped) controller.abort(new JobAbortedError(why));
    };
    const heartbeat = setInterval(
      () => {
        if (Date.now() >= leaseEnds) return lose("the job's lease expired before it was renewed");
        const sent = Date.now();
        this.repo.extendLease(job.id, this.workerId, this.leaseMs).then(
          (held) => {
            if (held) leaseEnds = Math.max(leaseEnds, sent + this.leaseMs);
            else lose("the job's lease was lost: another worker holds the job");
          },
          (error: unknown) => {
            this.logger.warn({ job: job.id, err: error }, "could not extend job lease");
          },
        );
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    return () => {
      stopped = true;
      clearInterval(heartbeat);
    };
  }
}
