import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROGRESS_NOTICE_MIN_MS } from "../../shared/constants";
import { NoticeSequencer } from "./notice-sequencer";

/** What the screen showed, with the fake clock's time when it changed. */
function screenLog() {
  const shown: { notice: string; atMs: number }[] = [];
  const start = Date.now();
  return { shown, show: (notice: string) => shown.push({ notice, atMs: Date.now() - start }) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("NoticeSequencer", () => {
  it("shows notices pushed all at once one after another, each for the minimum time", async () => {
    const { shown, show } = screenLog();
    const notices = new NoticeSequencer(show);
    for (const notice of ["A", "B", "C"]) void notices.push(notice);
    await vi.runAllTimersAsync();
    expect(shown).toEqual([
      { notice: "A", atMs: 0 },
      { notice: "B", atMs: PROGRESS_NOTICE_MIN_MS },
      { notice: "C", atMs: 2 * PROGRESS_NOTICE_MIN_MS },
    ]);
  });

  it("shows a notice at once when the one before has had its time, and keeps a slow step's notice up", async () => {
    const { shown, show } = screenLog();
    const notices = new NoticeSequencer(show, 100);
    void notices.push("Transcribing...");
    await vi.advanceTimersByTimeAsync(5000);
    expect(shown).toEqual([{ notice: "Transcribing...", atMs: 0 }]);
    void notices.push("Saving...");
    expect(shown.at(-1)).toEqual({ notice: "Saving...", atMs: 5000 });
  });

  it("counts the same notice twice in a row once", async () => {
    const { shown, show } = screenLog();
    const notices = new NoticeSequencer(show, 100);
    void notices.push("A");
    void notices.push("A");
    void notices.push("B");
    await vi.runAllTimersAsync();
    expect(shown.map((s) => s.notice)).toEqual(["A", "B"]);
  });

  it("resolves a push once its notice has been up for the minimum time; settled waits for the last", async () => {
    const notices = new NoticeSequencer(() => {}, 100);
    let firstDone = false;
    let allDone = false;
    void notices.push("A").then(() => {
      firstDone = true;
    });
    void notices.push("B");
    void notices.settled().then(() => {
      allDone = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(firstDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect([firstDone, allDone]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(100);
    expect(allDone).toBe(true);
  });

  it("reset drops what is queued, shows its notice at once and lets waiters go on", async () => {
    const { shown, show } = screenLog();
    const notices = new NoticeSequencer(show, 100);
    const waiting = notices.push("A");
    void notices.push("B");
    notices.reset("Failed");
    await waiting;
    await vi.runAllTimersAsync();
    expect(shown.map((s) => s.notice)).toEqual(["A", "Failed"]);
    // After a reset the same notice as before shows again.
    void notices.push("A");
    expect(shown.at(-1)?.notice).toBe("A");
  });
});
