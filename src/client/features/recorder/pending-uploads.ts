// Never lose a recording: from the moment recording stops until everything after the upload is done,
// the recording is kept in the browser (IndexedDB). Failed uploads and failed finishing steps are
// retried with backoff, on the next visit, and by hand (the home page's indicator).
import { useSyncExternalStore } from "react";
import { MESSAGES } from "../../../shared/messages";
import { ApiError, errorMessage } from "../../lib/api-client";
import { uploadAudio } from "./api/upload-audio";

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
export class PermanentError extends Error {
  readonly permanent = true;
}

interface PendingItem {
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

// ---- Storage: IndexedDB, or memory where the browser has none (then only this visit is covered).

interface Store {
  all(): Promise<PendingItem[]>;
  get(id: string): Promise<PendingItem | undefined>;
  put(item: PendingItem): Promise<void>;
  delete(id: string): Promise<void>;
}

const DB_NAME = "vmj-recordings";
const STORE = "pending";

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function indexedDbStore(factory: IDBFactory): Store {
  let opened: Promise<IDBDatabase> | undefined;
  const db = () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const open = factory.open(DB_NAME, 1);
      open.onupgradeneeded = () => {
        if (!open.result.objectStoreNames.contains(STORE)) {
          open.result.createObjectStore(STORE, { keyPath: "id" });
        }
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => {
        opened = undefined;
        reject(open.error);
      };
    });
    return opened;
  };
  const run = async <T>(
    mode: IDBTransactionMode,
    body: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> => {
    const tx = (await db()).transaction(STORE, mode);
    const result = request(body(tx.objectStore(STORE)));
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
    });
    return result;
  };
  return {
    all: () => run("readonly", (s) => s.getAll() as IDBRequest<PendingItem[]>),
    get: (id) => run("readonly", (s) => s.get(id) as IDBRequest<PendingItem | undefined>),
    put: async (item) => {
      await run("readwrite", (s) => s.put(item));
    },
    delete: async (id) => {
      await run("readwrite", (s) => s.delete(id));
    },
  };
}

function memoryStore(): Store {
  const items = new Map<string, PendingItem>();
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
 * IndexedDB, falling back to memory for an item IndexedDB refuses (quota, private mode): that
 * recording then survives this visit only, but it is still uploaded and retried.
 */
function resilientStore(primary: Store): Store {
  const fallback = memoryStore();
  return {
    all: async () => [...(await primary.all().catch(() => [])), ...(await fallback.all())],
    get: async (id) => (await fallback.get(id)) ?? (await primary.get(id).catch(() => undefined)),
    put: async (item) => {
      if (await fallback.get(item.id)) return fallback.put(item);
      await primary.put(item).catch(() => fallback.put(item));
    },
    delete: async (id) => {
      await fallback.delete(id);
      await primary.delete(id);
    },
  };
}

let store: Store | undefined;
function pendingStore(): Store {
  store ??=
    typeof indexedDB === "undefined" ? memoryStore() : resilientStore(indexedDbStore(indexedDB));
  return store;
}

// ---- Finishers, listeners and state for the indicator.

const finishers = new Map<string, Finisher>();

/**
 * Registers what happens after upload for `kind`. Register at module load of a module that
 * app.tsx imports, so recordings kept from an earlier visit find their finisher.
 */
export function registerFinisher(kind: string, fn: Finisher): () => void {
  finishers.set(kind, fn);
  return () => {
    if (finishers.get(kind) === fn) finishers.delete(kind);
  };
}

let summaries: PendingSummary[] = [];
const listeners = new Set<() => void>();
const inFlight = new Set<string>();

async function refresh(): Promise<void> {
  const items = await pendingStore().all();
  summaries = items
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((item) => ({
      id: item.id,
      kind: item.kind,
      recordedAt: item.recordedAt,
      uploaded: item.uploaded !== null,
      attempts: item.attempts,
      lastError: item.lastError,
      stuck: item.stuck,
      inFlight: inFlight.has(item.id),
    }));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the indicator knows of one kept recording (undefined once it is done or discarded). */
export function pendingSummary(id: string): PendingSummary | undefined {
  return summaries.find((item) => item.id === id);
}

/** Recordings kept in this browser that are not finished yet. */
export function usePendingRecordings(): PendingSummary[] {
  return useSyncExternalStore(
    subscribe,
    () => summaries,
    () => summaries,
  );
}

// ---- Processing.

const BASE_DELAY_MS = 2000;
const MAX_DELAY_MS = 5 * 60 * 1000;
const FRESH_GRACE_MS = 60 * 1000;

function newItemId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Keeps a finished recording in the browser; returns its id for `processPending`. */
export async function keepRecording(input: {
  kind: string;
  meta?: unknown;
  blob: Blob;
  filename: string;
  recordedAt: string;
}): Promise<string> {
  const item: PendingItem = {
    id: newItemId(),
    kind: input.kind,
    meta: input.meta ?? null,
    blob: input.blob,
    filename: input.filename,
    recordedAt: input.recordedAt,
    createdAt: new Date().toISOString(),
    uploaded: null,
    attempts: 0,
    lastError: null,
    // The recorder processes it right away; the background processor only takes it up if that
    // never happens (the tab closed first), so the two do not race for a fresh recording.
    nextAttemptAt: Date.now() + FRESH_GRACE_MS,
    stuck: false,
  };
  await pendingStore().put(item);
  await refresh();
  return item.id;
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

/** Runs `body` holding a per-recording lock across tabs when the browser has Web Locks. */
async function withLock<T>(id: string, body: () => Promise<T>): Promise<T | typeof SKIPPED> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks) return body();
  return locks.request(`vmj-recording-${id}`, { ifAvailable: true }, async (lock) =>
    lock ? body() : SKIPPED,
  ) as Promise<T | typeof SKIPPED>;
}
const SKIPPED = Symbol("skipped");

/**
 * Uploads a kept recording (unless already uploaded), runs its kind's finisher and forgets it.
 * Resolves with the finisher's result (or the upload when no finisher is registered). On failure
 * the recording stays kept, a retry is scheduled, and the error is thrown.
 */
export async function processPending(
  id: string,
  report: ReportNotice = () => {},
): Promise<unknown> {
  if (inFlight.has(id)) throw new Error("This recording is already being uploaded");
  inFlight.add(id);
  void refresh();
  try {
    const outcome = await withLock(id, async () => {
      const item = await pendingStore().get(id);
      if (!item) return undefined;
      let stage: "upload" | "finish" = "upload";
      try {
        if (!item.uploaded) {
          void report(MESSAGES.uploading);
          const stored = await uploadAudio(item.blob, item.filename, item.id);
          item.uploaded = { url: stored.url, id: stored.id };
          await pendingStore().put(item);
        }
        stage = "finish";
        const upload: UploadedRecording = {
          ...item.uploaded,
          recordedAt: item.recordedAt,
          meta: item.meta,
        };
        const finisher = finishers.get(item.kind);
        const result = finisher ? await finisher(upload, report) : upload;
        await pendingStore().delete(id);
        return result;
      } catch (error) {
        item.attempts += 1;
        item.lastError = errorMessage(error);
        item.stuck = isPermanent(error, stage);
        item.nextAttemptAt =
          Date.now() + Math.min(BASE_DELAY_MS * 2 ** (item.attempts - 1), MAX_DELAY_MS);
        await pendingStore().put(item);
        throw error;
      }
    });
    if (outcome === SKIPPED) throw new Error("This recording is being uploaded in another tab");
    return outcome;
  } finally {
    inFlight.delete(id);
    await refresh();
    scheduleNext();
  }
}

// ---- The background processor: started once by the app.

let started = false;
let timer: ReturnType<typeof setTimeout> | undefined;

function scheduleNext(): void {
  if (!started) return;
  if (timer) clearTimeout(timer);
  timer = undefined;
  void pendingStore()
    .all()
    .then((items) => {
      const due = items.filter((item) => !item.stuck && !inFlight.has(item.id));
      if (due.length === 0) return;
      const next = Math.min(...due.map((item) => item.nextAttemptAt));
      if (timer) clearTimeout(timer);
      timer = setTimeout(runDue, Math.max(0, next - Date.now()));
    });
}

async function runDue(): Promise<void> {
  timer = undefined;
  const items = await pendingStore().all();
  const now = Date.now();
  for (const item of items) {
    if (item.stuck || inFlight.has(item.id) || item.nextAttemptAt > now) continue;
    // Failures are recorded on the item and retried later; nothing to do here.
    await processPending(item.id).catch(() => undefined);
  }
  scheduleNext();
}

/** Starts retrying kept recordings now, with backoff, and whenever the browser comes back online. */
export function startPendingProcessor(): () => void {
  if (started) return () => {};
  started = true;
  const online = () => void retryPending();
  window.addEventListener("online", online);
  void refresh().then(() => runDue());
  return () => {
    started = false;
    window.removeEventListener("online", online);
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}

/** Retries kept recordings now (all, or one), including ones that stopped retrying by themselves. */
export async function retryPending(id?: string): Promise<void> {
  const items = await pendingStore().all();
  for (const item of items) {
    if ((id && item.id !== id) || inFlight.has(item.id)) continue;
    await processPending(item.id).catch(() => undefined);
  }
}

/** Forgets a kept recording for good (the indicator's Discard). */
export async function discardPending(id: string): Promise<void> {
  if (inFlight.has(id)) return;
  await pendingStore().delete(id);
  await refresh();
}
