import { onlineManager } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { MESSAGES } from "../../shared/messages";

const subscribe = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();

/** A calm line while there is no connection: what the app shows is what this device saw last. */
export function OfflineNote() {
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  if (online) return null;
  return (
    <p
      role="status"
      data-testid="offline-note"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-slate-800"
    >
      {MESSAGES.youAreOffline}
    </p>
  );
}
