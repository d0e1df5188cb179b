/** Where this tab's history entries keep how many of the app's own screens lie behind them. */
const DEPTH_KEY = "inAppDepth";

function entryDepth(): number | null {
  const state = window.history.state as Record<string, unknown> | null;
  const depth = state?.[DEPTH_KEY];
  return typeof depth === "number" ? depth : null;
}

/**
 * Counts, in each history entry's state, the app's own screens behind it, so Back can tell a screen
 * the app opened (the browser's history returns to it, with its page and search) from a page opened
 * from a QR code, a mail or a link (nothing of the app behind it). wouter announces its pushes and
 * replaces as window events: a push is one screen deeper, a replace keeps the depth, a traversal
 * reads the depth its entry kept. Returns the function that stops counting.
 */
export function trackInAppHistory(): () => void {
  let depth = entryDepth() ?? 0;
  const stamp = () => {
    if (entryDepth() === depth) return;
    window.history.replaceState({ ...window.history.state, [DEPTH_KEY]: depth }, "");
  };
  const pushed = () => {
    depth += 1;
    stamp();
  };
  const traversed = () => {
    depth = entryDepth() ?? 0;
  };
  stamp();
  window.addEventListener("pushState", pushed);
  window.addEventListener("replaceState", stamp);
  window.addEventListener("popstate", traversed);
  return () => {
    window.removeEventListener("pushState", pushed);
    window.removeEventListener("replaceState", stamp);
    window.removeEventListener("popstate", traversed);
  };
}

/** True when the screen before this one in the tab's history is one of the app's. */
export function hasInAppPrevious(): boolean {
  return (entryDepth() ?? 0) > 0;
}
