import { useState } from "react";
import { DEFAULT_BACKUP_FILENAME, MESSAGES } from "../../../../shared/messages";
import { toast } from "../../../components/ui/use-toast";
import { errorMessage } from "../../../lib/api-client";

export const BACKUP_PATH = "/api/backup-memories";

/** The filename of a Content-Disposition header, or the fallback (the spec's default). */
export function filenameFromContentDisposition(
  header: string | null,
  fallback: string = DEFAULT_BACKUP_FILENAME,
): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ""));
    } catch {
      // fall through to the plain filename
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}

/** Downloads the backup zip through fetch + blob; throws with the server's message on failure. */
export async function downloadBackup(): Promise<string> {
  return downloadFile(BACKUP_PATH, DEFAULT_BACKUP_FILENAME);
}

/**
 * Fetches `url` and saves the body under the server's filename (fetch + blob, so a failure shows
 * the server's message instead of a broken download); throws with that message.
 */
export async function downloadFile(url: string, fallbackFilename: string): Promise<string> {
  const res = await fetch(url, { credentials: "include" });
  if (!res.ok) {
    let message = `${res.status}: ${res.statusText}`;
    try {
      const body = (await res.json()) as { message?: string; error?: string };
      message = body.message ?? body.error ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new Error(message);
  }
  const filename = filenameFromContentDisposition(
    res.headers.get("content-disposition"),
    fallbackFilename,
  );
  const blob = await res.blob();
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the blob goes.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  return filename;
}

/** The backup download with the spec's toasts ('Backup successful' / 'Backup failed'). */
export function useBackupDownload() {
  const [pending, setPending] = useState(false);
  const download = async () => {
    setPending(true);
    try {
      await downloadBackup();
      toast({ title: MESSAGES.backupSuccessful });
    } catch (error) {
      toast({
        title: MESSAGES.backupFailed,
        description: errorMessage(error),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  };
  return { download, pending };
}
