import type { Memory } from "../../../../shared/schemas";

type Listener = (memory: Memory) => void;
const listeners = new Set<Listener>();

/** Tells the app a recording became a saved memory (toast, confetti, lists, save-account dialog). */
export function announceMemorySaved(memory: Memory): void {
  for (const listener of listeners) listener(memory);
}

export function onMemorySaved(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const failedListeners = new Set<Listener>();

/** Tells the app a recording's processing failed: it is kept on the server and can be retried. */
export function announceMemoryFailed(memory: Memory): void {
  for (const listener of failedListeners) listener(memory);
}

export function onMemoryFailed(listener: Listener): () => void {
  failedListeners.add(listener);
  return () => {
    failedListeners.delete(listener);
  };
}

type IdListener = (memoryId: string) => void;
const saveRequestListeners = new Set<IdListener>();

/** Asks for the save-account dialog for a memory recorded logged out (the home page's button). */
export function requestSaveToAccount(memoryId: string): void {
  for (const listener of saveRequestListeners) listener(memoryId);
}

export function onSaveToAccountRequested(listener: IdListener): () => void {
  saveRequestListeners.add(listener);
  return () => {
    saveRequestListeners.delete(listener);
  };
}
