import type { createRoot } from "react-dom/client";
import { afterFirstPaint } from "../../lib/after-paint";

/**
 * The installable app (ADR 0016): once the page has loaded and painted, registers the service
 * worker and mounts the update prompt, both from a chunk outside the home page's initial
 * JavaScript. Only built apps have a service worker; the dev server and tests run without one.
 */
export function registerAppUpdate(render: typeof createRoot): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  // After the first paint too: the load event comes before React has drawn the page.
  const start = () =>
    afterFirstPaint(
      () => void import("./components/update-prompt").then((m) => m.mountUpdatePrompt(render)),
    );
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
