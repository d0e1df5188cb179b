import type { createRoot } from "react-dom/client";

/**
 * The installable app (ADR 0016): once the page has loaded, registers the service
 * worker and mounts the update prompt, both from a chunk outside the home page's initial
 * JavaScript. Only built apps have a service worker; the dev server and tests run without one.
 */
export function registerAppUpdate(render: typeof createRoot): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const start = () =>
    void import("./components/update-prompt").then((m) => m.mountUpdatePrompt(render));
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
