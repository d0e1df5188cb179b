import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** Stands in for the browser's Worker: the test says when it answers or fails. */
class FakeWorker extends EventTarget {
  static created: FakeWorker[] = [];
  terminated = false;
  constructor(
    readonly url: URL | string,
    readonly options?: WorkerOptions,
  ) {
    super();
    FakeWorker.created.push(this);
  }
  terminate() {
    this.terminated = true;
  }
}

async function freshWarmDateFormat() {
  // The warm-up is made once per page: each test loads the module anew.
  vi.resetModules();
  return (await import("./warm-date-format")).warmDateFormat;
}

function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  return Promise.resolve()
    .then(() => undefined)
    .then(() => done);
}

beforeEach(() => {
  FakeWorker.created = [];
  vi.stubGlobal("Worker", FakeWorker);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("warmDateFormat", () => {
  it("waits for one module worker to build the formatter, then ends it", async () => {
    const warmDateFormat = await freshWarmDateFormat();
    const first = warmDateFormat();
    const second = warmDateFormat();
    expect(FakeWorker.created).toHaveLength(1);
    const [worker] = FakeWorker.created;
    expect(String(worker?.url)).toMatch(/warm-date-format\.worker/);
    expect(worker?.options).toEqual({ type: "module" });
    expect(await settled(first)).toBe(false);

    worker?.dispatchEvent(new MessageEvent("message", { data: "ready" }));
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
    expect(worker?.terminated).toBe(true);
  });

  it("resolves when the worker fails, so the list still shows", async () => {
    const warmDateFormat = await freshWarmDateFormat();
    const warming = warmDateFormat();
    FakeWorker.created[0]?.dispatchEvent(new Event("error"));
    await expect(warming).resolves.toBeUndefined();
    expect(FakeWorker.created[0]?.terminated).toBe(true);
  });

  it("stops waiting after a second when the worker never answers", async () => {
    const warmDateFormat = await freshWarmDateFormat();
    const warming = warmDateFormat();
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(warming)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(warming).resolves.toBeUndefined();
    expect(FakeWorker.created[0]?.terminated).toBe(true);
  });

  it("resolves at once where there are no workers", async () => {
    vi.stubGlobal("Worker", undefined);
    const warmDateFormat = await freshWarmDateFormat();
    await expect(warmDateFormat()).resolves.toBeUndefined();
    expect(FakeWorker.created).toHaveLength(0);
  });
});
