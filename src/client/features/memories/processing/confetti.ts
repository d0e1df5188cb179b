import { CONFETTI_MS } from "../../../../shared/constants";

/** Confetti for about 2 seconds (spec 9); the library is only fetched when a memory is saved. */
export async function celebrate(durationMs = CONFETTI_MS): Promise<void> {
  if (typeof window === "undefined" || typeof document === "undefined") return;
  // jsdom and very old browsers have no 2D canvas: nothing to draw on.
  if (!document.createElement("canvas").getContext?.("2d")) return;
  const { default: confetti } = await import("canvas-confetti");
  const end = Date.now() + durationMs;
  const burst = () => {
    void confetti({
      particleCount: 40,
      spread: 70,
      startVelocity: 35,
      origin: { x: Math.random() * 0.6 + 0.2, y: 0.6 },
      disableForReducedMotion: true,
    });
    if (Date.now() < end) setTimeout(burst, 250);
  };
  burst();
}
