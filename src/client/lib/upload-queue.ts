// Never lose a recording: from the moment recording stops until everything after the upload is done,
// the recording is kept in the browser (IndexedDB). Failed uploads and failed finishing steps are
// retried with backoff, on the next visit, and by hand (the home page's indicator).
import { createStore, del, get, promisifyRequest, type UseStore, values } from "idb-keyval";
import { MESSAGES } from "../../shared/messages";
import { ApiError, errorMessage, ProductError } from "./api-client";

export interface UploadedRecording {
  url: string;
  id: string;
  recordedAt: string;
  meta: unknown;
}

/**
 * Shows a progress notice. The recorder's resolves once the notice has been on screen for its
 * minimum time (docs/adr/0013), so a finisher can await its last notice before it celebrates.
 */
export type ReportNotice = (notice: string) => void | Promise<void>;

/** What runs after the upload for one kind of recording ('memory', 'comment'); its result goes to onSaved. */
export type Finisher = (upload: UploadedRecording, report: ReportNotice) => Promise<unknown>;

/** A finisher throws this (or any error with `permanent: true`) when retrying cannot help. */
export class PermanentError extends ProductError {
  readonly permanent = true;
}

interface KeptRecording {
  id: string;
  kind: string;
  meta: unknown;
  blob: Blob;
  filename: string;
  recordedAt: string;
  createdAt: string;
  /** Set once the server stored the audio: it is never uploaded twice. */
  uploaded: { url: string; id: string } | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number;
  /** Stopped retrying by itself (the server refused it); Retry or Discard by hand. */
  stuck: boolean;
}

/** What the indicator shows about a kept recording. */
export interface PendingSummary {
  id: string;
  kind: string;
  recordedAt: string;
  uploaded: boolean;
  attempts: number;
  lastError: string | null;
  stuck: boolean;
  inFlight: boolean;
}

/** Where kept recordings live. */
export interface KeptStore {
  all(): Promise<KeptRecording[]>;
  get(id: string): Promise<KeptRecording | undefined>;
  put(item: KeptRecording): Promise<void>;
  delete(id: string): Promise<void>;
}

/** Time and timers, passed in so the backoff is tested on a fake clock. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const browserClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Kept for this visit only: where the browser has no IndexedDB, and in tests. */
export function memoryStore(): KeptStore {
  const items = new Map<string, KeptRecording>();
  return {
    all: async () => [...items.values()],
    get: async (id) => items.get(id),
    put: async (item) => {
      items.set(item.id, item);
    },
    delete: async (id) => {
      items.delete(id);
    },
  };
}

/**
 * IndexedDB through idb-keyval ("vmj-recordings", store "pending", where earlier versions kept
 * recordings by their `id` key path), falling back to memory for an item IndexedDB refuses
 * (quota, private mode): that recording then survives this visit only, but is still uploaded.
 */
export function browserStore(): KeptStore {
  const fallback = memoryStore();
  if (typeof indexedDB === "undefined") return fallback;
  let opened: UseStore | undefined;
  const db = () => {
    opened ??= createStore("vmj-recordings", "pending");
    return opened;
  };
  return {
    all: async () => [
      ...(await values<KeptRecording>(db()).catch(() => [])),
      ...(await fallback.all()),
    ],
    get: async (id) =>
      (await fallback.get(id)) ?? (await get<KeptRecording>(id, db()).catch(() => undefined)),
    put: async (item) => {
      if (await fallback.get(item.id)) return fallback.put(item);
      await db()("readwrite", (store) => {
        // A store made by an earlier version keys by the item's id itself.
        if (store.keyPath) store.put(item);
        else store.put(item, item.id);
        return promisifyRequest(store.transaction);
      }).catch(() => fallback.put(item));
    },
    delete: async (id) => {
      await fallback.delete(id);
      await del(id, db());
    },
  };
}

const BASE_DELAY_MS = 2000;
const MAX_DELAY_MS = 5 * 60 * 1000;
/** How long a fresh recording is left to its recorder before the background retries take it up. */
export const FRESH_GRACE_MS = 60 * 1000;

/** The wait after failed attempt number `attempts`: 2 s, doubling, at most 5 minutes. */
export function retryDelay(attempts: number): number {
  return Math.min(BASE_DELAY_MS * 2 ** (attempts - 1), MAX_DELAY_MS);
}

function newItemId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

function isPermanent(error: unknown, stage: "upload" | "finish"): boolean {
  if ((error as { permanent?: unknown } | null)?.permanent === true) return true;
  // The server refused the file itself (not audio, too large): sending it again cannot help.
  return (
    stage === "upload" &&
    error instanceof ApiError &&
    (error.status === 400 || error.status === 413)
  );
}

const SKIPPED = Symbol("skipped");

/** Runs `body` holding a per-recording lock across tabs when the browser has Web Locks. */
async function withLock<T>(id: string, body: () => Promise<T>): Promise<T | typeof SKIPPED> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return body();
  return locks.request(`vmj-recording-${id}`, { ifAvailable: true }, async (lock) =>
    lock ? body() : SKIPPED,
  ) as Promise<T | typeof SKIPPED>;
}

export interface UploadQueueOptions {
  /** Sends the audio; `key` names the recording so sending it again never stores a copy. */
  upload: (blob: Blob, filename: string, key: string) => Promise<{ url: string; id: string }>;
  /** What runs after the upload, by kind of recording. */
  finishers: Record<string, Finisher>;
  store?: KeptStore;
  clock?: Clock;
}

/**
 * The recordings kept in this browser until they are uploaded and finished. The app makes one
 * (app/upload-queue.ts) and gives it to the features by context (upload-queue-context.tsx).
 */
export class UploadQueue {
  private readonly store: KeptStore;
  private readonly clock: Clock;
  private summaries: PendingSummary[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly inFlight = new Set<string>();
  private started = false;
  private timer: unknown;

  constructor(private readonly options: UploadQueueOptions) {
    this.store = options.store ?? browserStore();
    this.clock = options.clock ?? browserClock;
  }

  /** For useSyncExternalStore: called whenever the kept recordings change. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Recordings kept in this browser that are not finished yet, oldest first. */
  pending = (): PendingSummary[] => this.summaries;

  /** What the indicator knows of one kept recording (undefined once it is done or discarded). */
  summary(id: string): PendingSummary | undefined {
    return this.summaries.find((item) => item.id === id);
  }

  /** Keeps a finished recording in the browser; returns its id for `process`. */
  async keep(input: {
    kind: string;
    meta?: unknown;
    blob: Blob;
    filename: string;
    recordedAt: string;
  }): Promise<string> {
    const item: KeptRecording = {
      id: newItemId(),
      kind: input.kind,
      meta: input.meta ?? null,
      blob: input.blob,
      filename: input.filename,
      recordedAt: input.recordedAt,
      createdAt: new Date(this.clock.now()).toISOString(),
      uploaded: null,
      attempts: 0,
      lastError: null,
      // The recorder processes it right away; the background retries only take it up if that
      // never happens (the tab closed first), so the two do not race for a fresh recording.
      nextAttemptAt: this.clock.now() + FRESH_GRACE_MS,
      stuck: false,
    };
    await this.store.put(item);
    await this.refresh();
    return item.id;
  }

  /**
   * Uploads a kept recording (unless already uploaded), runs its kind's finisher and forgets it.
   * Resolves with the finisher's result (or the upload when its kind has no finisher). On failure
   * the recording stays kept, a retry is scheduled, and the error is thrown.
   */
  async process(id: string, report: ReportNotice = () => {}): Promise<unknown> {
    if (this.inFlight.has(id)) throw new Error("This recording is already being uploaded");
    this.inFlight.add(id);
    void this.refresh();
    try {
      const outcome = await withLock(id, () => this.attempt(id, report));
      if (outcome === SKIPPED) throw new Error("This recording is being uploaded in another tab");
      return outcome;
    } finally {
      this.inFlight.delete(id);
      await this.refresh();
      this.scheduleNext();
    }
  }

  /** Starts retrying kept recordings now, with backoff, and whenever the browser comes back online. */
  start(): () => void {
    if (this.started) return () => {};
    this.started = true;
    const online = () => void this.retry();
    window.addEventListener("online", online);
    void this.refresh().then(() => this.runDue());
    return () => {
      this.started = false;
      window.removeEventListener("online", online);
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    };
  }

  /** Retries kept recordings now (all, or one), including ones that stopped retrying by themselves. */
  async retry(id?: string): Promise<void> {
    for (const item of await this.store.all()) {
      if ((id && item.id !== id) || this.inFlight.has(item.id)) continue;
      await this.process(item.id).catch(() => undefined);
    }
  }

  /** Forgets a kept recording for good (the indicator's Discard). */
  async discard(id: string): Promise<void> {
    if (this.inFlight.has(id)) return;
    await this.store.delete(id);
    await this.refresh();
  }

  private async attempt(id: string, report: ReportNotice): Promise<unknown> {
    const item = await this.store.get(id);
    if (!item) return undefined;
    let stage: "upload" | "finish" = "upload";
    try {
      if (!item.uploaded) {
        void report(MESSAGES.uploading);
        const stored = await this.options.upload(item.blob, item.filename, item.id);
        item.uploaded = { url: stored.url, id: stored.id };
        await this.store.put(item);
      }
      stage = "finish";
      const upload: UploadedRecording = {
        ...item.uploaded,
        recordedAt: item.recordedAt,
        meta: item.meta,
      };
      const finisher = this.options.finishers[item.kind];
      const result = finisher ? await finisher(upload, report) : upload;
      await this.store.delete(id);
      return result;
    } catch (error) {
      item.attempts += 1;
      item.lastError = errorMessage(error);
      item.stuck = isPermanent(error, stage);
      item.nextAttemptAt = this.clock.now() + retryDelay(item.attempts);
      await this.store.put(item);
      throw error;
    }
  }

  private async refresh(): Promise<void> {
    const items = await this.store.all();
    this.summaries = items
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((item) => ({
        id: item.id,
        kind: item.kind,
        recordedAt: item.recordedAt,
        uploaded: item.uploaded !== null,
        attempts: item.attempts,
        lastError: item.lastError,
        stuck: item.stuck,
        inFlight: this.inFlight.has(item.id),
      }));
    for (const listener of this.listeners) listener();
  }

  private scheduleNext(): void {
    if (!this.started) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    void this.store.all().then((items) => {
      const due = items.filter((item) => !item.stuck && !this.inFlight.has(item.id));
      if (!this.started || due.length === 0) return;
      const next = Math.min(...due.map((item) => item.nextAttemptAt));
      this.clock.clearTimeout(this.timer);
      this.timer = this.clock.setTimeout(
        () => void this.runDue(),
        Math.max(0, next - this.clock.now()),
      );
    });
  }

  private async runDue(): Promise<void> {
    this.timer = undefined;
    if (!this.started) return;
    const now = this.clock.now();
    for (const item of await this.store.all()) {
      if (item.stuck || this.inFlight.has(item.id) || item.nextAttemptAt > now) continue;
      // Failures are recorded on the item and retried later; nothing to do here.
      await this.process(item.id).catch(() => undefined);
    }
    this.scheduleNext();
  }
}
