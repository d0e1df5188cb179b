import { Copy, Share2 } from "lucide-react";
import { formatMessage } from "../../../../shared/i18n/format";
import { MESSAGES } from "../../../../shared/messages";
import { SHARE_MESSAGES } from "../../../../shared/share-links";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";

export async function copyShareUrl(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: SHARE_MESSAGES.copied });
  } catch {
    toast({ title: MESSAGES.copyFailed, description: url, variant: "destructive" });
  }
}

/** Whether this browser has a share sheet (phones mostly; most desktop browsers have none). */
function canShareSheet(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.share === "function";
}

/**
 * Hands the link to the phone's share sheet. Closing the sheet is no failure; a sheet that cannot
 * open leaves Copy, so the link is copied instead.
 */
export async function openShareSheet(url: string): Promise<void> {
  try {
    await navigator.share({
      title: SHARE_MESSAGES.shareSheetTitle,
      text: SHARE_MESSAGES.shareSheetText,
      url,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") return;
    await copyShareUrl(url);
  }
}

/**
 * A link just made: its address (shown this once), with a copy button, and where the browser has
 * one (phones) a button that opens the share sheet. The address is the
 * server's, exactly as the mail to the relative writes it: on APP_URL, or without it on the
 * address this page is open at (the form warns while that is a loopback address).
 */
export function CreatedLink({
  label,
  url,
  note = SHARE_MESSAGES.copyOnce,
}: {
  label: string;
  url: string;
  /** Said under the address: a share link is shown this once. */
  note?: string;
}) {
  return (
    <div
      className="space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
      data-testid="created-share-link"
    >
      <p className="text-sm font-medium text-slate-900">{label}</p>
      <input
        readOnly
        aria-label={formatMessage(SHARE_MESSAGES.linkNamed, { label })}
        value={url}
        onFocus={(event) => event.currentTarget.select()}
        className="h-11 w-full rounded-md border border-slate-300 bg-white px-3 font-mono text-sm text-slate-900"
      />
      <p className="text-sm text-slate-700">{note}</p>
      <div className="flex flex-wrap gap-2">
        {canShareSheet() ? (
          <Button onClick={() => void openShareSheet(url)}>
            <Share2 className="h-4 w-4" aria-hidden="true" />
            {SHARE_MESSAGES.shareSheet}
          </Button>
        ) : null}
        <Button variant="secondary" onClick={() => void copyShareUrl(url)}>
          <Copy className="h-4 w-4" aria-hidden="true" />
          {SHARE_MESSAGES.copy}
        </Button>
      </div>
    </div>
  );
}
