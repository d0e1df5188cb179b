/** The log calls the scheduler makes; a Fastify (pino) logger fits. */
export interface SchedulerLogger {
  error(obj: object, msg: string): void;
}

/**
 * Checks for due reminders every `intervalMs` (0 turns it off), starting at once so an hour that
 * passed while the server was down is caught up. Holds no state of its own: what was sent lives in
 * the database (docs/adr/0020), so a restart neither loses nor repeats a reminder.
 */
export class ReminderScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly sendDue: (now: Date) => Promise<number>,
    private readonly intervalMs: number,
    private readonly logger: SchedulerLogger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a check in progress (its mail finishes and is marked sent). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.sendDue(new Date())
      .catch((error: unknown) => this.logger.error({ err: error }, "reminder check failed"))
      .finally(() => {
        this.running = undefined;
      });
  }
}
