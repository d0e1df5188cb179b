import { useEffect, useRef } from "react";
import {
  VISUALISER_FFT_SIZE,
  VISUALISER_HEIGHT,
  VISUALISER_WIDTH,
} from "../../../../shared/constants";
import { MESSAGES } from "../../../../shared/messages";
import { cn } from "../../../lib/cn";

/**
 * The live audio level while recording (spec 2: canvas 800x300, frequency size 256). Visible only
 * while `stream` is set, fading otherwise. While `paused` the bars lie flat and dimmed, and it says
 * so. Without a 2D canvas or Web Audio it quietly draws nothing.
 */
export function AudioVisualiser({
  stream,
  paused = false,
  className,
}: {
  stream: MediaStream | null;
  paused?: boolean;
  className?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // Read by the drawing loop, which runs from the stream's start to its end.
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

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
      if (pausedRef.current) levels.fill(0);
      else analyser.getByteFrequencyData(levels);
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
      aria-label={paused ? MESSAGES.recordingPaused : MESSAGES.liveAudioLevel}
      data-testid="audio-visualiser"
      data-active={stream ? "true" : "false"}
      data-paused={paused ? "true" : "false"}
      className={cn(
        "h-auto w-full rounded-lg bg-slate-50 transition-all duration-500",
        // Fades (and folds away) when not recording.
        stream ? (paused ? "opacity-40" : "opacity-100") : "max-h-0 opacity-0",
        className,
      )}
    />
  );
}
