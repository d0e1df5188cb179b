import { useEffect, useRef } from "react";
import {
  VISUALISER_FFT_SIZE,
  VISUALISER_HEIGHT,
  VISUALISER_WIDTH,
} from "../../../../shared/constants";
import { cn } from "../../../lib/cn";

/**
 * The live audio level while recording (spec 2: canvas 800x300, frequency size 256). Visible only
 * while `stream` is set, fading otherwise. Without a 2D canvas or Web Audio it quietly draws nothing.
 */
export function AudioVisualiser({
  stream,
  className,
}: {
  stream: MediaStream | null;
  className?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!stream || !canvas) return;
    const context2d = canvas.getContext("2d");
    const AudioContextClass = typeof AudioContext === "undefined" ? undefined : AudioContext;
    if (!context2d || !AudioContextClass) return;

    let audioContext: AudioContext;
    let analyser: AnalyserNode;
    try {
      audioContext = new AudioContextClass();
      analyser = audioContext.createAnalyser();
      analyser.fftSize = VISUALISER_FFT_SIZE;
      audioContext.createMediaStreamSource(stream).connect(analyser);
    } catch {
      return;
    }
    const levels = new Uint8Array(analyser.frequencyBinCount);
    let frame = 0;
    const draw = () => {
      analyser.getByteFrequencyData(levels);
      const { width, height } = canvas;
      context2d.clearRect(0, 0, width, height);
      const barWidth = width / levels.length;
      for (let i = 0; i < levels.length; i++) {
        const barHeight = ((levels[i] ?? 0) / 255) * height;
        context2d.fillStyle = `hsl(${255 + (i / levels.length) * 40}, 70%, ${45 + (barHeight / height) * 20}%)`;
        context2d.fillRect(i * barWidth, height - barHeight, Math.max(1, barWidth - 1), barHeight);
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      cancelAnimationFrame(frame);
      context2d.clearRect(0, 0, canvas.width, canvas.height);
      void audioContext.close().catch(() => undefined);
    };
  }, [stream]);

  return (
    <canvas
      ref={canvasRef}
      width={VISUALISER_WIDTH}
      height={VISUALISER_HEIGHT}
      role="img"
      aria-label="Live audio level"
      data-testid="audio-visualiser"
      data-active={stream ? "true" : "false"}
      className={cn(
        "h-auto w-full rounded-lg bg-slate-50 transition-all duration-500",
        // Fades (and folds away) when not recording.
        stream ? "opacity-100" : "max-h-0 opacity-0",
        className,
      )}
    />
  );
}
