import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-client";
import {
  type Clock,
  FRESH_GRACE_MS,
  type KeptStore,
  memoryStore,
  retryDelay,
  UploadQueue,
} from "./upload-queue";

/** A clock whose time moves only when the test says; timers run in order as it passes them. */
function fakeClock() {
  let time = 1_000_000;
  let nextId = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: Clock = {
    now: () => time,
    setTimeout: (run, ms) => {
      nextId += 1;
      timers.set(nextId, { at: time + ms, run });
      return nextId;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  /** Moves time on by `ms`, running each timer that falls due (and letting its work settle). */
  async function advance(ms: number) {
    const end = time + ms;
    for (;;) {
      await settle();
      const due = [...timers.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      timers.delete(due[0]);
      time = due[1].at;
      due[1].run();
    }
    time = end;
    await settle();
  }
  return { clock, advance, pendingTimers: () => timers.size };
}

/** Lets promise chains (store, upload, finisher) run to their end. */
async function settle() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

const recording = {
  kind: "memory",
  blob: new Blob([new Uint8Array(2048)], { type: "audio/mpeg" }),
  filename: "recording.mp3",
  recordedAt: "2026-05-01T10:00:00.000Z",
};

function queueWith(
  upload: (blob: Blob, filename: string, key: string) => Promise<{ url: string; id: string }>,
  store: KeptStore = memoryStore(),
) {
  const { clock, advance, pendingTimers } = fakeClock();
  const finish = vi.fn(async (upload: { url: string }) => `saved ${upload.url}`);
  const queue = new UploadQueue({ upload, finishers: { memory: finish }, store, clock });
  return { queue, finish, advance, pendingTimers, store };
}

type Upload = () => Promise<{ url: string; id: string }>;
const offline: Upload = () => Promise.reject(new TypeError("Failed to fetch"));
const stored: Upload = async () => ({ url: "/api/audio/a1", id: "a1" });

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe("UploadQueue", () => {
  it("uploads a kept recording, runs its kind's finisher and forgets it", async () => {
    const { queue, finish, store } = queueWith(stored);
    const id = await queue.keep(recording);
    expect(queue.pending().map((item) => item.id)).toEqual([id]);
    await expect(queue.process(id)).resolves.toBe("saved /api/audio/a1");
    expect(finish).toHaveBeenCalledTimes(1);
    expect(queue.pending()).toEqual([]);
    expect(await store.all()).toEqual([]);
  });

  it("retries a failed upload with backoff (2 s, 4 s, 8 s ...) on the clock, never before", async () => {
    const upload = vi.fn<Upload>(offline);
    const { queue, advance } = queueWith(upload);
    stop = queue.start();
    const id = await queue.keep(recording);
    await expect(queue.process(id)).rejects.toThrow("Failed to fetch");
    expect(queue.summary(id)).toMatchObject({ attempts: 1, stuck: false });

    await advance(retryDelay(1) - 1);
    expect(upload).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(upload).toHaveBeenCalledTimes(2);
    await advance(retryDelay(2) - 1);
    expect(upload).toHaveBeenCalledTimes(2);
    upload.mockImplementation(stored);
    await advance(1);
    expect(upload).toHaveBeenCalledTimes(3);
    expect(queue.pending()).toEqual([]);
    expect(retryDelay(30)).toBe(5 * 60 * 1000);
  });

  it("does not retry by itself a recording the server refused; Retry by hand still sends it", async () => {
    const upload = vi.fn<Upload>(() => Promise.reject(new ApiError(400, "400: not audio")));
    const { queue, advance, pendingTimers } = queueWith(upload);
    stop = queue.start();
    const id = await queue.keep(recording);
    await expect(queue.process(id)).rejects.toThrow();
    expect(queue.summary(id)).toMatchObject({ stuck: true, attempts: 1 });
    await advance(60 * 60 * 1000);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(pendingTimers()).toBe(0);

    upload.mockImplementation(stored);
    await queue.retry(id);
    expect(queue.pending()).toEqual([]);
  });

  it("restores recordings kept on an earlier visit and sends them once the fresh grace has passed", async () => {
    const store = memoryStore();
    const first = queueWith(offline, store);
    await first.queue.keep(recording);
    // The tab closed before the recorder processed it; the next visit makes a new queue.
    const upload = vi.fn(stored);
    const next = queueWith(upload, store);
    stop = next.queue.start();
    await settle();
    expect(next.queue.pending()).toHaveLength(1);
    expect(upload).not.toHaveBeenCalled();
    await next.advance(FRESH_GRACE_MS);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(next.finish).toHaveBeenCalledTimes(1);
    expect(next.queue.pending()).toEqual([]);
  });

  it("sends kept recordings when the browser comes back online, and never uploads twice", async () => {
    const upload = vi.fn(stored);
    let fail = true;
    const { queue, finish } = queueWith(upload);
    finish.mockImplementation(async () => {
      if (fail) throw new TypeError("Failed to fetch");
      return "saved";
    });
    stop = queue.start();
    const id = await queue.keep(recording);
    await expect(queue.process(id)).rejects.toThrow();
    expect(queue.summary(id)).toMatchObject({ uploaded: true, attempts: 1 });

    fail = false;
    window.dispatchEvent(new Event("online"));
    await settle();
    await settle();
    expect(queue.pending()).toEqual([]);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(finish).toHaveBeenCalledTimes(2);
  });

  it("Discard forgets a kept recording and tells its listeners", async () => {
    const { queue } = queueWith(offline);
    const listener = vi.fn();
    queue.subscribe(listener);
    const id = await queue.keep(recording);
    await queue.discard(id);
    expect(queue.pending()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
