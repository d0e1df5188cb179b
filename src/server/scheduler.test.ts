import { afterEach, describe, expect, it, vi } from "vitest";
import { type ScheduledTask, Scheduler } from "./scheduler";

const logger = () => ({ error: vi.fn() });

describe("the scheduler of background work", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs each task at start, then on its own interval, until stopped", async () => {
    vi.useFakeTimers();
    const calls = { sweep: 0, check: 0 };
    const scheduler = new Scheduler(
      [
        { name: "sweep", everyMs: 1000, run: async () => calls.sweep++ },
        { name: "check", everyMs: 400, run: async () => calls.check++ },
      ],
      logger(),
    );
    scheduler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual({ sweep: 1, check: 1 });
    await vi.advanceTimersByTimeAsync(2500);
    expect(calls).toEqual({ sweep: 3, check: 7 });
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual({ sweep: 3, check: 7 });
  });

  it("tells a run in progress that it is stopping, and waits for it to end", async () => {
    let seen: AbortSignal | undefined;
    const scheduler = new Scheduler(
      [
        {
          name: "download",
          everyMs: 60_000,
          run: (_now, signal) =>
            new Promise((resolve) => {
              seen = signal;
              signal.addEventListener("abort", () => resolve("stopped"), { once: true });
            }),
        },
      ],
      logger(),
    );
    scheduler.start();
    expect(seen?.aborted).toBe(false);
    await scheduler.stop();
    expect(seen?.aborted).toBe(true);
  });

  it("is started once", () => {
    const scheduler = new Scheduler([], logger());
    scheduler.start();
    expect(() => scheduler.start()).toThrow("already started");
  });

  it("never runs a task whose interval is 0", async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => 0);
    const scheduler = new Scheduler([{ name: "off", everyMs: 0, run }], logger());
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10_000);
    await scheduler.stop();
    expect(run).not.toHaveBeenCalled();
  });

  it("logs a failed run and runs again on the next tick; never overlaps a slow run; stop waits", async () => {
    vi.useFakeTimers();
    const log = logger();
    let runs = 0;
    let active = 0;
    let most = 0;
    const flaky: ScheduledTask = {
      name: "flaky",
      everyMs: 1000,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error("database gone");
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 2500));
        active -= 1;
      },
    };
    const scheduler = new Scheduler([flaky], log);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({
        task: "flaky",
        err: expect.objectContaining({ message: "database gone" }),
      }),
      "background task failed",
    );
    await vi.advanceTimersByTimeAsync(6000);
    expect(runs).toBeGreaterThan(2);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(3000);
    await stopping;
    expect(stopped).toBe(true);
    expect(most).toBe(1);
  });
});
