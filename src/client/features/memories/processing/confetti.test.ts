import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONFETTI_MS } from "../../../../shared/constants";
import { celebrate } from "./confetti";

const confetti = vi.hoisted(() =>
  Object.assign(
    vi.fn(async () => undefined),
    { reset: vi.fn() },
  ),
);
vi.mock("canvas-confetti", () => ({ default: confetti }));

/** canvas-confetti's own defaults: a particle lives 200 frames, drawn at most 60 a second. */
const LIBRARY_DEFAULT_TICKS = 200;
const FRAME_MS = 1000 / 60;

beforeEach(() => {
  confetti.mockClear();
  confetti.reset.mockClear();
  // jsdom has no 2D canvas; celebrate() only checks that one exists.
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(
    {} as CanvasRenderingContext2D,
  );
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("celebrate", () => {
  it("is over in about 2 seconds: every particle has faded by then and the canvas is cleared", async () => {
    await celebrate();
    const bursts: { atMs: number; ticks: number }[] = [];
    for (let t = 0; t <= CONFETTI_MS + 3000; t += 50) {
      const before = confetti.mock.calls.length;
      await vi.advanceTimersByTimeAsync(t === 0 ? 0 : 50);
      for (const call of confetti.mock.calls.slice(before) as unknown as [{ ticks?: number }][]) {
        bursts.push({ atMs: t, ticks: call[0].ticks ?? LIBRARY_DEFAULT_TICKS });
      }
    }
    expect(bursts.length).toBeGreaterThanOrEqual(3);
    // The last particle of each burst is gone by the end (at 60 frames a second).
    for (const burst of bursts) {
      expect(burst.atMs + burst.ticks * FRAME_MS).toBeLessThanOrEqual(CONFETTI_MS + FRAME_MS);
    }
    // And at the end whatever a slow device still draws is cleared (its canvas goes with it).
    expect(confetti.reset).toHaveBeenCalledTimes(1);
  });

  it("clears at the end, not before", async () => {
    await celebrate();
    await vi.advanceTimersByTimeAsync(CONFETTI_MS - 1);
    expect(confetti.reset).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(confetti.reset).toHaveBeenCalledTimes(1);
  });
});
