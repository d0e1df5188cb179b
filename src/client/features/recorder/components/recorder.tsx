import { Mic, Pause, Play, Square, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { TAKE_YOUR_TIME_AFTER_MS } from "../../../../shared/constants";
import { MESSAGES, recordingClock } from "../../../../shared/messages";
import { questionInPageLanguage } from "../../../../shared/questions";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { useRecorder } from "../use-recorder";
import { AudioVisualiser } from "./audio-visualiser";

export interface RecorderProps {
  /** Which finisher runs after upload ('memory', 'comment'); see app/upload-queue.ts. */
  kind: string;
  /** Passed to the finisher with the upload (e.g. the memory id and commenter name of a comment). */
  meta?: unknown;
  /** Called before recording starts; return false to stay idle (e.g. a comment without a name). */
  beforeStart?: () => boolean;
  /** Called with the finisher's result once everything after the upload is done. */
  onSaved?: (result: unknown) => void;
  variant?: "card" | "watch" | "compact";
  /** The start button's words, when "Start Recording" does not say what the recording becomes. */
  startLabel?: string;
  /** The question being answered, said again while recording. */
  question?: string | null;
}

/**
 * The one recorder (home card, watch view, spoken comments); what it does is in useRecorder, this
 * is its view.
 */
export function Recorder({
  kind,
  meta,
  beforeStart,
  onSaved,
  variant = "card",
  startLabel = MESSAGES.startRecording,
  question = null,
}: RecorderProps) {
  const { state, elapsedMs, start, pause, resume, stop, cancel } = useRecorder({
    kind,
    meta,
    beforeStart,
    onSaved,
    variant,
  });
  const { phase, stream, paused, notice, error, keptReason } = state;
  const recording = phase === "recording";
  const busy = phase !== "idle" && phase !== "recording";

  // Keyboard: the button is disabled while the microphone opens (focus would fall to the page and
  // the next Tab reach Cancel Recording), so focus returns to it as Stop Recording, and as Start
  // Recording once processing ends, when it was on the button or fell to the page.
  const mainButton = useRef<HTMLButtonElement>(null);
  const focusWasHere = useRef(false);
  useEffect(() => {
    const button = mainButton.current;
    if (!button) return;
    if (busy) return;
    const active = document.activeElement;
    if (focusWasHere.current && (active === null || active === document.body)) button.focus();
    focusWasHere.current = false;
  }, [busy]);

  const label =
    phase === "recording" ? MESSAGES.stopRecording : busy ? MESSAGES.processing : startLabel;
  const compact = variant === "compact";
  const watch = variant === "watch";

  return (
    <div
      className={cn("flex flex-col items-center gap-4", compact && "items-stretch gap-2")}
      data-testid="recorder"
      data-state={phase}
    >
      {!compact && (
        <AudioVisualiser
          stream={stream}
          paused={paused}
          // Folded away it keeps a margin as tall as the status line below (min-h-5), so the idle
          // button sits in the middle of the home card.
          className={stream ? (watch ? "max-h-16" : "max-h-40") : watch ? "" : "mb-5"}
        />
      )}
      {recording && question ? (
        <p
          className={cn(
            "w-full text-lg text-balance",
            compact ? "text-start" : "text-center",
            watch ? "text-slate-100" : "text-slate-800",
          )}
          data-testid="recording-question"
        >
          <span className="font-medium">{MESSAGES.recordingAnswering}</span>{" "}
          {questionInPageLanguage(question)}
        </p>
      ) : null}
      {recording ? (
        <div
          className={cn("flex items-baseline gap-3", compact ? "justify-start" : "justify-center")}
        >
          {/* A timer's role: read when asked, not announced every second. */}
          <span
            role="timer"
            aria-label={MESSAGES.recordingTime}
            className={cn(
              "font-semibold tabular-nums",
              compact ? "text-3xl" : "text-5xl",
              watch ? "text-white" : "text-slate-900",
              paused && "opacity-60",
            )}
          >
            {recordingClock(elapsedMs)}
          </span>
          {paused ? (
            <span
              className={cn("text-lg font-medium", watch ? "text-amber-200" : "text-amber-800")}
            >
              {MESSAGES.recordingPaused}
            </span>
          ) : null}
        </div>
      ) : null}
      <div
        className={cn(
          "flex flex-wrap items-center justify-center gap-3",
          compact && "justify-start",
        )}
      >
        <Button
          ref={mainButton}
          size={watch ? "round" : compact ? "sm" : "lg"}
          className={cn(compact && "min-h-11")}
          variant={phase === "recording" ? "destructive" : "primary"}
          onClick={(event) => {
            focusWasHere.current = document.activeElement === event.currentTarget;
            void (phase === "recording" ? stop : start)();
          }}
          disabled={busy}
        >
          {phase === "recording" ? (
            <Square className="h-4 w-4" aria-hidden="true" />
          ) : phase === "idle" ? (
            <Mic className="h-4 w-4" aria-hidden="true" />
          ) : null}
          {label}
        </Button>
        {recording && (
          <Button
            size={compact ? "sm" : "md"}
            className="min-h-11"
            variant="secondary"
            onClick={paused ? resume : pause}
          >
            {paused ? (
              <Play className="h-4 w-4" aria-hidden="true" />
            ) : (
              <Pause className="h-4 w-4" aria-hidden="true" />
            )}
            {paused ? MESSAGES.resumeRecording : MESSAGES.pauseRecording}
          </Button>
        )}
        {recording && (
          <Button
            size={compact ? "sm" : "md"}
            className="min-h-11"
            variant="outline"
            onClick={cancel}
          >
            <X className="h-4 w-4" aria-hidden="true" />
            {MESSAGES.cancelRecording}
          </Button>
        )}
      </div>
      {/* Said once, calmly, on a long recording: no hurry, no limit to worry about. */}
      {recording ? (
        <p
          aria-live="polite"
          data-testid="take-your-time"
          className={cn("text-center text-base", watch ? "text-slate-200" : "text-slate-700")}
        >
          {elapsedMs >= TAKE_YOUR_TIME_AFTER_MS ? MESSAGES.takeYourTime : null}
        </p>
      ) : null}
      <p
        role="status"
        aria-live="polite"
        className={cn("min-h-5 text-center text-sm", watch ? "text-slate-200" : "text-slate-600")}
      >
        {notice}
      </p>
      {keptReason && (
        <p
          data-testid="kept-reason"
          className={cn(
            "w-full rounded-md border px-4 py-3 text-sm",
            watch
              ? "border-slate-600 bg-slate-800 text-slate-100"
              : "border-slate-300 bg-slate-50 text-slate-800",
          )}
        >
          {keptReason}
        </p>
      )}
      {error && (
        <div
          role="alert"
          className="w-full rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {error}
        </div>
      )}
    </div>
  );
}
