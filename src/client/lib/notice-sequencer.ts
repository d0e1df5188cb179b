import { PROGRESS_NOTICE_MIN_MS } from "../../shared/constants";

interface Entry {
  notice: string;
  promise: Promise<void>;
  resolve: () => void;
}

function entry(notice: string): Entry {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { notice, promise, resolve };
}

/**
 * Shows progress notices one after another, in the order they are pushed, each for at least
 * `minMs`, even when the step behind a notice finished long ago (docs/adr/0013): a fast provider
 * still shows every step, and a slow one shows each for as long as it runs.
 */
export class NoticeSequencer {
  private current: Entry | null = null;
  private queue: Entry[] = [];
  private last: Entry | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly show: (notice: string) => void,
    private readonly minMs = PROGRESS_NOTICE_MIN_MS,
  ) {}

  /**
   * Queues a notice (the same notice twice in a row counts once). Resolves once it has been on
   * screen for the minimum time, or when `reset` drops it.
   */
  push = (notice: string): Promise<void> => {
    if (this.last?.notice === notice) return this.last.promise;
    const next = entry(notice);
    this.last = next;
    if (this.current) this.queue.push(next);
    else this.display(next);
    return next.promise;
  };

  /** Resolves once every notice pushed so far has had its minimum time on screen. */
  settled(): Promise<void> {
    return this.last?.promise ?? Promise.resolve();
  }

  /** Drops what is queued and shows `notice` at once (an error, or nothing when idle again). */
  reset(notice = ""): void {
    this.stop();
    this.show(notice);
  }

  /** Stops the clock (the recorder is gone); whoever waits on a notice goes on. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const dropped of [this.current, ...this.queue]) dropped?.resolve();
    this.current = null;
    this.queue = [];
    this.last = null;
  }

  private display(next: Entry): void {
    this.current = next;
    this.show(next.notice);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.current = null;
      next.resolve();
      const following = this.queue.shift();
      if (following) this.display(following);
    }, this.minMs);
  }
}
