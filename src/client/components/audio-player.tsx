import { Pause, Play } from "lucide-react";
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import { MESSAGES, playbackPositionText } from "../../shared/messages";
import { isRightToLeft } from "../lib/language";
import { Button } from "./ui/button";

/** Seconds as m:ss (h:mm:ss from an hour); '0:00' for anything unknown. */
export function formatTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** How far the arrow keys move the position; Page Up/Down move a tenth of the recording. */
const ARROW_STEP_SECONDS = 5;

/** The one element playing, so starting another recording pauses it. */
let playingElement: HTMLAudioElement | null = null;

/**
 * A recording's player: play/pause, a seek bar with elapsed and total time, and a caption (the
 * recorded date). The seek bar is a native range input (arrows, Home/End, touch) labelled for
 * screen readers; the buttons and bar are 44 px tall for a thumb. `preload="metadata"` fetches only
 * the start of the file; seeking asks the server for the bytes it needs with an HTTP Range request.
 */
export function AudioPlayer({
  src,
  caption,
  label = MESSAGES.recording,
  durationHint,
  audioRef,
  captions,
  stickyWhilePlaying = false,
}: {
  src: string;
  caption: string;
  /** Names the player for screen readers when a page has several (e.g. 'Comment by Sam'). */
  label?: string;
  /** The stored duration in seconds, shown until the browser has read the file's own. */
  durationHint?: number | null;
  /** Shares the audio element (the transcript follows it and seeks it). */
  audioRef?: RefObject<HTMLAudioElement | null>;
  /** A WebVTT captions track for the recording, and its language. */
  captions?: { src: string; language: string | null };
  /**
   * While it plays, the player stays at the top of the viewport as the page scrolls (its parent
   * must span the page, as sticky holds inside it): the memory page's read-along on a phone.
   */
  stickyWhilePlaying?: boolean;
}) {
  const own = useRef<HTMLAudioElement>(null);
  const audio = audioRef ?? own;
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  const duration = mediaDuration ?? (durationHint && durationHint > 0 ? durationHint : 0);

  useEffect(() => {
    const element = audio.current;
    return () => {
      if (element && !element.paused) element.pause();
      if (playingElement === element) playingElement = null;
    };
  }, [audio]);

  const readDuration = () => {
    const value = audio.current?.duration;
    if (value !== undefined && Number.isFinite(value) && value > 0) setMediaDuration(value);
  };

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) {
      element.play().catch(() => setPlaying(false));
    } else {
      element.pause();
    }
  };

  const seek = (seconds: number) => {
    const element = audio.current;
    const target = Math.min(Math.max(seconds, 0), duration || 0);
    setCurrent(target);
    if (element) element.currentTime = target;
  };

  const onSliderKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const page = Math.max(duration / 10, ARROW_STEP_SECONDS);
    // Right to left, the bar fills leftwards: the left arrow moves on.
    const forward = isRightToLeft() ? "ArrowLeft" : "ArrowRight";
    const back = isRightToLeft() ? "ArrowRight" : "ArrowLeft";
    const moves: Record<string, number> = {
      [back]: current - ARROW_STEP_SECONDS,
      ArrowDown: current - ARROW_STEP_SECONDS,
      [forward]: current + ARROW_STEP_SECONDS,
      ArrowUp: current + ARROW_STEP_SECONDS,
      PageDown: current - page,
      PageUp: current + page,
      Home: 0,
      End: duration,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    // The native step would be a fraction of a second (step="any"): these keys move in seconds.
    event.preventDefault();
    seek(target);
  };

  return (
    <fieldset
      aria-label={label}
      data-sticky={stickyWhilePlaying && playing ? "true" : undefined}
      className={`flex min-w-0 items-center gap-3 ${
        stickyWhilePlaying && playing
          ? "sticky top-0 z-30 -mx-4 border-b border-brand-100 bg-brand-50/95 px-4 py-1 shadow-sm backdrop-blur"
          : ""
      }`}
    >
      <Button
        size="icon"
        className="shrink-0 rounded-full"
        aria-label={playing ? MESSAGES.pause : MESSAGES.play}
        onClick={toggle}
        disabled={!src}
      >
        {playing ? (
          <Pause className="h-5 w-5" aria-hidden="true" />
        ) : (
          <Play className="h-5 w-5" aria-hidden="true" />
        )}
      </Button>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-2 text-sm text-slate-700">
          <span className="min-w-0 truncate">{caption}</span>
          <span className="shrink-0 tabular-nums" data-testid="player-time">
            {formatTime(current)} / {formatTime(duration)}
          </span>
        </div>
        <input
          type="range"
          className="block h-11 w-full cursor-pointer accent-brand-700 disabled:cursor-default"
          aria-label={MESSAGES.playbackPosition}
          aria-valuetext={playbackPositionText(formatTime(current), formatTime(duration))}
          min={0}
          max={duration || 0}
          step="any"
          value={Math.min(current, duration || 0)}
          disabled={!src || !duration}
          onChange={(event) => seek(Number(event.target.value))}
          onKeyDown={onSliderKey}
        />
      </div>
      {src ? (
        // biome-ignore lint/a11y/useMediaCaption: the transcript is shown on the page
        <audio
          ref={audio}
          src={src}
          preload="metadata"
          onLoadedMetadata={readDuration}
          onDurationChange={readDuration}
          onTimeUpdate={(event) => setCurrent(event.currentTarget.currentTime)}
          onPlay={(event) => {
            const element = event.currentTarget;
            if (playingElement && playingElement !== element) playingElement.pause();
            playingElement = element;
            setPlaying(true);
          }}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
        >
          {captions ? (
            <track
              kind="captions"
              src={captions.src}
              srcLang={captions.language ?? "en"}
              label={MESSAGES.captions}
              default
            />
          ) : null}
        </audio>
      ) : null}
    </fieldset>
  );
}
