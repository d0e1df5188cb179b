import { startTransition, useEffect, useState } from "react";

/**
 * Runs `callback` once the browser has painted its next frame (a timeout queued from an animation
 * frame runs after that frame's paint). Returns a cancel function.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

const FIRST_CONTENTFUL_PAINT = "first-contentful-paint";

/**
 * How long code that waits for the first paint waits at most: a page the browser never reports a
 * contentful paint for (nothing but a spinner, say) still gets its toasts and menus.
 */
export const FIRST_PAINT_WAIT_MS = 3000;

/**
 * Runs `callback` once the page's first contentful paint is on screen (the browser reports it a
 * little after the frame is drawn), or FIRST_PAINT_WAIT_MS after it was asked; where paints are not
 * reported, after the next frame.
 */
export function afterFirstPaint(callback: () => void): () => void {
  const reportsPaints =
    typeof PerformanceObserver !== "undefined" &&
    PerformanceObserver.supportedEntryTypes?.includes("paint");
  if (!reportsPaints || performance.getEntriesByName(FIRST_CONTENTFUL_PAINT).length > 0) {
    return afterNextPaint(callback);
  }
  let done = false;
  const stop = () => {
    done = true;
    observer.disconnect();
    clearTimeout(fallback);
  };
  const run = () => {
    if (done) return;
    stop();
    callback();
  };
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName(FIRST_CONTENTFUL_PAINT).length > 0) run();
  });
  const fallback = setTimeout(run, FIRST_PAINT_WAIT_MS);
  observer.observe({ type: "paint", buffered: true });
  return stop;
}

let firstPaintDone = false;
let firstPaintPromise: Promise<void> | undefined;

/** Resolves once the page's first contentful paint is on screen (see afterFirstPaint). */
export function firstPaint(): Promise<void> {
  firstPaintPromise ??= new Promise((resolve) => {
    afterFirstPaint(() => {
      firstPaintDone = true;
      resolve();
    });
  });
  return firstPaintPromise;
}

/**
 * False until the page's first contentful paint is on screen, then true. Code and data that are
 * not part of the first screen (the user menu's dropdown, the list below the recorder) are asked
 * for after it, so their downloads and parsing do not hold the first paint back.
 */
export function useAfterFirstPaint(): boolean {
  const [done, setDone] = useState(firstPaintDone);
  useEffect(() => {
    if (done) return;
    let mounted = true;
    void firstPaint().then(() => {
      // A transition: React renders what comes after the paint in slices, yielding to input.
      if (mounted) startTransition(() => setDone(true));
    });
    return () => {
      mounted = false;
    };
  }, [done]);
  return done;
}
