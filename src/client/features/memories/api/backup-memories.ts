import { useState } from "react";
import { DOWNLOAD_CHECK_HEADER } from "../../../../shared/constants";
import { DEFAULT_BACKUP_FILENAME, MESSAGES } from "../../../../shared/messages";
import { toast, toastError } from "../../../components/ui/use-toast";
import { throwIfResNotOk } from "../../../lib/api-client";
import { useJournalParam, withJournal } from "../../journals/open-journal";

export const BACKUP_PATH = "/api/backup-memories";

/** Downloads the backup zip straight to disk; throws the server's refusal if it cannot start. */
export function downloadBackup(journalId?: string): Promise<void> {
  return downloadFile(withJournal(BACKUP_PATH, journalId), DEFAULT_BACKUP_FILENAME);
}

/**
 * Asks the server whether `url` can be downloaded (its checks, without building the file), then
 * follows a link to it: the browser saves the stream to disk, never holding it in the page's memory.
 * The server's Content-Disposition names the file; `fallbackFilename` only when it names none.
 * Throws the server's refusal (an ApiError with its code) when the check fails. A failure after the stream has started
 * cuts the connection and the browser marks the download failed.
 */
export async function downloadFile(url: string, fallbackFilename: string): Promise<void> {
  const res = await fetch(url, {
    credentials: "include",
    headers: { [DOWNLOAD_CHECK_HEADER]: "1" },
  });
  // An ApiError with the server's `{ code, message }`: the toast says the code's words.
  await throwIfResNotOk(res);
  const link = document.createElement("a");
  link.href = url;
  link.download = fallbackFilename;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** The backup download with the spec's toasts ('Backup successful' / 'Backup failed'). */
export function useBackupDownload() {
  const [pending, setPending] = useState(false);
  const journalId = useJournalParam();
  const download = async () => {
    setPending(true);
    try {
      await downloadBackup(journalId);
      toast({ title: MESSAGES.backupSuccessful });
    } catch (error) {
      toastError(MESSAGES.backupFailed, error);
    } finally {
      setPending(false);
    }
  };
  return { download, pending };
}
