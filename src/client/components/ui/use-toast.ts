import { type ReactNode, useSyncExternalStore } from "react";
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from "../../../shared/constants";
import { errorMessage } from "../../lib/api-client";

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: "default" | "destructive";
  /** A button in the toast, such as Undo; tapping it closes the toast. */
  action?: { label: string; onClick: () => void };
  /** How long it stays, when not the usual TOAST_DURATION_MS. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

type Listener = (toasts: ToastItem[]) => void;

let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<Listener>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(): void {
  for (const listener of listeners) listener(toasts);
}

/** Spec 9: a dismissed toast is removed from memory after the removal delay. */
function scheduleRemoval(id: string): void {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      toasts = toasts.filter((t) => t.id !== id);
      emit();
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dismissToast(id?: string): void {
  toasts = toasts.map((t) => {
    if (id === undefined || t.id === id) {
      scheduleRemoval(t.id);
      return { ...t, open: false };
    }
    return t;
  });
  emit();
}

/** Shows a toast; at most TOAST_LIMIT are kept, newest first. */
export function toast(input: ToastOptions): { id: string; dismiss: () => void } {
  const options = input;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  toasts = [{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const currentToasts = () => toasts;

/**
 * The toasts shown now. Read through React's external-store hook, so a toast raised after the
 * Toaster rendered but before it subscribed (a toast raised in a sibling's layout effect) is
 * not missed.
 */
export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, currentToasts, currentToasts);
}

/** A red toast: what failed (`title`) and why, in the words `errorMessage` gives the error. */
export function toastError(title: ReactNode, error: unknown): { id: string; dismiss: () => void } {
  return toast({ title, description: errorMessage(error), variant: "destructive" });
}
