/**
 * Runs `run` at once and then every `intervalMs` (0 or less: never) on a timer that does not keep
 * the process alive. A run that outlasts the interval is not overlapped by the next one; `stop`
 * ends the timer and waits for a run in progress. Housekeeping and the reminder scheduler use it.
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
  }
}
