import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RestoreResult, restoreResultSchema } from "../../../../shared/schemas";
import { throwIfResNotOk } from "../../../lib/api-client";
import { useJournalParam, withJournal } from "../../journals/open-journal";
import { invalidateMemoryLists } from "../../memories/api/get-memories";

export const RESTORE_PATH = "/api/restore";

/** Sends a backup zip (multipart field `backup`); the server checks it whole before importing. */
export async function restoreBackup(file: File, journalId?: string): Promise<RestoreResult> {
  const body = new FormData();
  body.append("backup", file, file.name);
  const res = await fetch(withJournal(RESTORE_PATH, journalId), {
    method: "POST",
    body,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return restoreResultSchema.parse(await res.json());
}

/** Restoring adds memories: every list is fetched again. */
export function useRestoreBackup() {
  const queryClient = useQueryClient();
  const journalId = useJournalParam();
  return useMutation({
    mutationFn: (file: File) => restoreBackup(file, journalId),
    onSuccess: () => invalidateMemoryLists(queryClient),
  });
}
