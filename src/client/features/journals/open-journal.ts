import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Journal } from "../../../shared/schemas";
import { useUser } from "../auth/api/get-user";
import { useJournals } from "./api/get-journals";
import { journalKeys } from "./api/journal-keys";

/** Where this device remembers the journal each account had open. */
const STORAGE_PREFIX = "open-journal:";

export interface OpenJournal {
  /** The open journal: the one chosen on this device, else the user's first (their own). */
  journal: Journal | undefined;
  journals: readonly Journal[];
  /** True while a logged-in user's journals are being read. */
  isLoading: boolean;
  /** Why the journals could not be read, if they could not. */
  error: unknown;
  open: (journalId: string) => void;
}

const NONE: readonly Journal[] = [];

function remembered(userId: string): string | null {
  try {
    return window.localStorage.getItem(STORAGE_PREFIX + userId);
  } catch {
    // Storage refused (a privacy setting): the choice lasts as long as the page.
    return null;
  }
}

function remember(userId: string, journalId: string): void {
  try {
    window.localStorage.setItem(STORAGE_PREFIX + userId, journalId);
  } catch {
    // Full or refused: the page still remembers it.
  }
}

/**
 * The journal open in this app, remembered per account and per device, so a relative who opened
 * their parents' journal finds it open next time; the user's journals; and how to open another.
 * The choice is kept in the query cache beside the journals, so every screen follows a switch at
 * once. A remembered journal the user no longer belongs to (they left, or were removed) falls back
 * to their first.
 */
export function useOpenJournal(): OpenJournal {
  const queryClient = useQueryClient();
  const userId = useUser().data?.id;
  const journals = useJournals();
  const chosenKey = journalKeys.open(userId ?? "");
  const chosen = useQuery({
    queryKey: chosenKey,
    queryFn: () => remembered(userId ?? ""),
    enabled: Boolean(userId),
  }).data;
  const open = useCallback(
    (journalId: string) => {
      if (!userId) return;
      remember(userId, journalId);
      queryClient.setQueryData(journalKeys.open(userId), journalId);
    },
    [queryClient, userId],
  );
  const list = userId ? (journals.data ?? NONE) : NONE;
  return {
    journal: list.find((candidate) => candidate.id === chosen) ?? list[0],
    journals: list,
    isLoading: Boolean(userId) && journals.isLoading,
    error: userId ? journals.error : null,
    open,
  };
}

/**
 * The `journal` an organizer's download, restore or share links act on: the open journal's id
 * when it is not the user's own (the server's default), else undefined.
 */
export function useJournalParam(): string | undefined {
  const { journal, journals } = useOpenJournal();
  return journal && journal.id !== journals[0]?.id ? journal.id : undefined;
}

/** `path` with `?journal=` (or `&journal=`) when a journal is given. */
export function withJournal(path: string, journalId: string | undefined): string {
  if (!journalId) return path;
  return `${path}${path.includes("?") ? "&" : "?"}journal=${encodeURIComponent(journalId)}`;
}
