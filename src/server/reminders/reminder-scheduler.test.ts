import { describe, expect, it, vi } from "vitest";
import { reminderScheduler } from "./reminder-scheduler";

describe("the reminder scheduler", () => {
  it("checks at once and on its interval, logs a failed check and goes on, and stop waits", async () => {
    let calls = 0;
    let release: (() => void) | undefined;
    const sendDue = vi.fn(async () => {
      calls++;
      if (calls === 1) throw new Error("database gone");
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 1;
    });
    const logger = { error: vi.fn() };
    const scheduler = reminderScheduler(sendDue, 20, logger);
    scheduler.start();
    expect(sendDue).toHaveBeenCalledTimes(1); // at start: catches up what passed while down
    await vi.waitFor(() => expect(logger.error).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(calls).toBe(2));
    // A slow check is not overlapped by the next tick.
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(stopped).toBe(false);
    release?.();
    await stopping;
    expect(stopped).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toBe(2);
  });

  it("never checks with an interval of 0", async () => {
    const sendDue = vi.fn(async () => 0);
    const scheduler = reminderScheduler(sendDue, 0, { error: vi.fn() });
    scheduler.start();
    await scheduler.stop();
    expect(sendDue).not.toHaveBeenCalled();
  });
});
