/** One kind of background work: run at start, then every `everyMs` (0 or less: never). */
export interface ScheduledTask {
  name: string;
  everyMs: number;
  /** `signal` is aborted when the scheduler stops: long work (a download) ends early. */
  run(now: Date, signal: AbortSignal): Promise<unknown>;
}

/** The log call the scheduler makes; a Fastify (pino) logger fits. */
export interface SchedulerLogger {
  error(obj: object, msg: string): void;
}

/**
 * The one runner of an instance's background work (housekeeping sweeps, reminder checks), built
 * by compose.ts and started once by main.ts after the app listens. Each task runs at start (so
 * what fell due while the server was down is caught up) and on its own interval, never
 * overlapping itself; a failed run is logged and the next one runs as usual. The tasks keep no
 * state here: what they did lives in the database, so several instances may run them at once.
 */
export class Scheduler {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Map<ScheduledTask, Promise<unknown>>();
  private readonly stopping = new AbortController();
  private started = false;

  constructor(
    private readonly tasks: readonly ScheduledTask[],
    private readonly logger: SchedulerLogger,
  ) {}

  start(): void {
    if (this.started) throw new Error("The scheduler was already started");
    this.started = true;
    for (const task of this.tasks) {
      if (task.everyMs <= 0) continue;
      this.tick(task);
      // Timers that do not keep the process alive.
      const timer = setInterval(() => this.tick(task), task.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /**
   * Stops the timers, tells the runs in progress through their signal, and waits for them (a mail
   * being sent is finished; a download is abandoned).
   */
  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.stopping.abort(new Error("the server is stopping"));
    await Promise.all(this.running.values());
  }

  /** Runs `task` unless its previous run is still going. */
  private tick(task: ScheduledTask): void {
    if (this.running.has(task)) return;
    const run = task
      .run(new Date(), this.stopping.signal)
      .catch((error: unknown) =>
        this.logger.error({ err: error, task: task.name }, "background task failed"),
      )
      .finally(() => this.running.delete(task));
    this.running.set(task, run);
  }
}
