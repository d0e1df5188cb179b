import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterFirstPaint, FIRST_PAINT_WAIT_MS } from "./after-paint";

/**
 * A browser that reports paints: the observer's callback is handed to the test, which decides
 * whether a first contentful paint is ever reported.
 */
class ReportingObserver {
  static supportedEntryTypes = ["paint"];
  static last: ReportingObserver | undefined;
  disconnected = false;
  constructor(readonly report: (list: { getEntriesByName: (name: string) => unknown[] }) => void) {
    ReportingObserver.last = this;
  }
  observe() {}
  disconnect() {
    this.disconnected = true;
  }
}

describe("afterFirstPaint", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("PerformanceObserver", ReportingObserver);
    vi.spyOn(performance, "getEntriesByName").mockReturnValue([]);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("runs once the first contentful paint is reported, and only once", () => {
    const callback = vi.fn();
    afterFirstPaint(callback);
    expect(callback).not.toHaveBeenCalled();
    ReportingObserver.last?.report({ getEntriesByName: () => [{}] });
    expect(callback).toHaveBeenCalledTimes(1);
    expect(ReportingObserver.last?.disconnected).toBe(true);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("runs after FIRST_PAINT_WAIT_MS when no contentful paint is ever reported", () => {
    const callback = vi.fn();
    afterFirstPaint(callback);
    ReportingObserver.last?.report({ getEntriesByName: () => [] });
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
    expect(ReportingObserver.last?.disconnected).toBe(true);
  });

  it("runs neither way once cancelled", () => {
    const callback = vi.fn();
    const cancel = afterFirstPaint(callback);
    cancel();
    ReportingObserver.last?.report({ getEntriesByName: () => [{}] });
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(callback).not.toHaveBeenCalled();
  });
});
