import { CONFETTI_MS } from "../../../../shared/constants";

/** canvas-confetti draws at most this many frames a second; a particle lives `ticks` frames. */
const CONFETTI_FPS = 60;
const BURST_EVERY_MS = 250;

/**
 * The bursts and particle life of a celebration lasting `durationMs`: bursts during the first
 * half, each particle fading out within the second half, so the last one is gone at the end
 * (spec 9: about 2 seconds). The library's default life (200 frames, 3.3 s) kept it up for 5 s.
 */
function confettiPlan(durationMs = CONFETTI_MS) {
  const burstWindowMs = durationMs / 2;
  return {
    burstsAtMs: Array.from(
      { length: Math.floor(burstWindowMs / BURST_EVERY_MS) + 1 },
      (_, i) => i * BURST_EVERY_MS,
    ),
    ticks: Math.floor(((durationMs - burstWindowMs) * CONFETTI_FPS) / 1000),
    stopAtMs: durationMs,
  };
}

/**
 * Confetti for about 2 seconds (spec 9); the library is only fetched when a memory is saved. At the
 * end whatever is left (a slow device draws fewer frames, so particles live longer) is cleared and
 * the library removes its canvas.
 */
export async function celebrate(durationMs = CONFETTI_MS): Promise<void> {
  if (typeof window === "undefined" || typeof document === "undefined") return;
  // jsdom and very old browsers have no 2D canvas: nothing to draw on.
  if (!document.createElement("canvas").getContext?.("2d")) return;
  const { default: confetti } = await import("canvas-confetti");
  const plan = confettiPlan(durationMs);
  for (const at of plan.burstsAtMs) {
    setTimeout(() => {
      void confetti({
        particleCount: 40,
        spread: 70,
        startVelocity: 35,
        ticks: plan.ticks,
        origin: { x: Math.random() * 0.6 + 0.2, y: 0.6 },
        disableForReducedMotion: true,
      });
    }, at);
  }
  setTimeout(() => confetti.reset(), plan.stopAtMs);
}
