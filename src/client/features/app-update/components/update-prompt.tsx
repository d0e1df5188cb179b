/// <reference types="vite-plugin-pwa/react" />

import { useRegisterSW } from "virtual:pwa-register/react";
import { RefreshCw } from "lucide-react";
import { StrictMode } from "react";
import type { createRoot } from "react-dom/client";
import { UPDATE_MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";

/** How often an open app asks whether a new version was deployed (browsers also ask on each visit). */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Registers the service worker and, when a new version has been deployed and its worker waits,
 * offers to switch to it. The new version never takes over by itself: a page reloaded under
 * someone would lose what they were doing.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      const check = () => {
        // Offline the check cannot succeed; the next one (or the next visit) will.
        if (navigator.onLine) registration.update().catch(() => undefined);
      };
      setInterval(check, UPDATE_CHECK_INTERVAL_MS);
      // An installed app is often resumed from the background rather than opened anew.
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") check();
      });
    },
  });

  if (!needRefresh) return null;
  return (
    <section
      aria-label={UPDATE_MESSAGES.region}
      data-testid="update-prompt"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[90] flex justify-center p-4"
    >
      <div className="pointer-events-auto flex w-full max-w-md flex-col gap-3 rounded-lg border border-brand-100 bg-white p-4 shadow-lg sm:flex-row sm:items-center">
        <div className="flex flex-1 items-center gap-3">
          <RefreshCw className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <p role="status" className="text-sm font-semibold text-slate-900">
            {UPDATE_MESSAGES.newVersion}
          </p>
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" size="lg" onClick={() => setNeedRefresh(false)}>
            {UPDATE_MESSAGES.later}
          </Button>
          <Button size="lg" onClick={() => void updateServiceWorker()}>
            {UPDATE_MESSAGES.reload}
          </Button>
        </div>
      </div>
    </section>
  );
}

/**
 * Renders the prompt in a root of its own at the end of <body>, beside the app. The page passes its
 * createRoot, so this chunk does not pull react-dom/client out of the main bundle into a chunk of
 * its own (an extra request on the first load).
 */
export function mountUpdatePrompt(render: typeof createRoot): void {
  const host = document.createElement("div");
  host.id = "app-update";
  document.body.append(host);
  render(host).render(
    <StrictMode>
      <UpdatePrompt />
    </StrictMode>,
  );
}
