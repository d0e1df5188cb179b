import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import type { TranscriptSegment } from "../../../../shared/transcript";
import { Button } from "../../../components/ui/button";

/** A stretch of the transcript: plain text, or a timed sentence. */
type Piece = { text: string; segment?: TranscriptSegment; index?: number };

/**
 * The transcript cut into its timed sentences, in order: each segment found in the text (from where
 * the previous one ended) becomes a piece of its own, and the text between stays as it is, so the
 * words on screen are exactly the transcript's.
 */
export function transcriptPieces(
  transcript: string,
  segments: readonly TranscriptSegment[],
): Piece[] {
  const pieces: Piece[] = [];
  let from = 0;
  for (const [index, segment] of segments.entries()) {
    const words = segment.text.trim();
    const at = words ? transcript.indexOf(words, from) : -1;
    if (at < 0) continue;
    if (at > from) pieces.push({ text: transcript.slice(from, at) });
    pieces.push({ text: words, segment, index });
    from = at + words.length;
  }
  if (from < transcript.length) pieces.push({ text: transcript.slice(from) });
  return pieces;
}

/** The sentence being spoken at `seconds`: the last one begun, until the next begins. */
export function currentSegment(segments: readonly TranscriptSegment[], seconds: number): number {
  let current = -1;
  for (const [index, segment] of segments.entries()) {
    if (segment.start <= seconds) current = index;
    else break;
  }
  return current;
}

/** Keys that scroll the page when nothing that takes them has focus. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

/** A scroll the reader made by hand: a wheel, a finger, or a scrolling key outside a control. */
function isHandScroll(event: Event): boolean {
  if (event.type !== "keydown") return true;
  const key = (event as KeyboardEvent).key;
  const target = event.target as HTMLElement | null;
  const control = target?.closest?.("input, textarea, select, button, a, [contenteditable]");
  return SCROLL_KEYS.has(key) && !control;
}

const HAND_SCROLL_EVENTS = ["wheel", "touchmove", "keydown"] as const;

/** The first sentence holding a word of `search` (2 letters or more, any case); -1 for none. */
export function firstMatch(segments: readonly TranscriptSegment[], search: string): number {
  const words = search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2);
  if (words.length === 0) return -1;
  return segments.findIndex((segment) => {
    const text = segment.text.toLowerCase();
    return words.some((word) => text.includes(word));
  });
}

/**
 * The memory's transcript to follow while it plays: the sentence being spoken is highlighted, and
 * tapping a sentence plays the recording from there. Without times it is the plain transcript.
 * Opened from a search, it starts at the first sentence that matched: marked, scrolled to, and the
 * player set to its start.
 *
 * While it plays, the sentence being spoken is scrolled into view as it changes (smoothly, unless
 * the reader asked for less motion). Scrolling by hand stops that, so the reader can look around;
 * it follows again when they press play, tap a sentence, or press "Follow the voice".
 */
export function FollowAlong({
  transcript,
  segments,
  audio,
  search = "",
}: {
  transcript: string;
  segments: readonly TranscriptSegment[];
  audio: RefObject<HTMLAudioElement | null>;
  search?: string;
}) {
  const pieces = useMemo(() => transcriptPieces(transcript, segments), [transcript, segments]);
  const [playing, setPlaying] = useState(-1);
  const found = useMemo(() => firstMatch(segments, search), [segments, search]);
  const foundRef = useRef<HTMLButtonElement | null>(null);
  const [following, setFollowing] = useState(true);
  const [audioPlaying, setAudioPlaying] = useState(false);
  const playingRef = useRef<HTMLButtonElement | null>(null);

  useEffect(() => {
    const segment = segments[found];
    const element = audio.current;
    if (!segment || !element) return;
    element.currentTime = segment.start;
    setPlaying(found);
    foundRef.current?.scrollIntoView?.({ block: "center" });
  }, [audio, segments, found]);

  useEffect(() => {
    const element = audio.current;
    if (!element || segments.length === 0) return;
    const follow = () =>
      setPlaying(
        element.paused && element.currentTime === 0
          ? -1
          : currentSegment(segments, element.currentTime),
      );
    element.addEventListener("timeupdate", follow);
    element.addEventListener("seeked", follow);
    return () => {
      element.removeEventListener("timeupdate", follow);
      element.removeEventListener("seeked", follow);
    };
  }, [audio, segments]);

  // Playing again follows again; whether it plays shows or hides the follow control.
  useEffect(() => {
    const element = audio.current;
    if (!element || segments.length === 0) return;
    const onPlay = () => {
      setAudioPlaying(true);
      setFollowing(true);
    };
    const onStop = () => setAudioPlaying(false);
    element.addEventListener("play", onPlay);
    element.addEventListener("pause", onStop);
    element.addEventListener("ended", onStop);
    return () => {
      element.removeEventListener("play", onPlay);
      element.removeEventListener("pause", onStop);
      element.removeEventListener("ended", onStop);
    };
  }, [audio, segments]);

  // A scroll by hand while it plays: the reader leads until they ask it to follow again.
  useEffect(() => {
    if (!audioPlaying || !following) return;
    const stop = (event: Event) => {
      if (isHandScroll(event)) setFollowing(false);
    };
    for (const name of HAND_SCROLL_EVENTS) window.addEventListener(name, stop, { passive: true });
    return () => {
      for (const name of HAND_SCROLL_EVENTS) window.removeEventListener(name, stop);
    };
  }, [audioPlaying, following]);

  // The sentence being spoken, brought into view as it changes (and when following resumes).
  useEffect(() => {
    if (!following || !audioPlaying || playing < 0) return;
    const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    playingRef.current?.scrollIntoView?.({ block: "center", behavior: still ? "auto" : "smooth" });
  }, [playing, following, audioPlaying]);

  const playFrom = (segment: TranscriptSegment) => {
    const element = audio.current;
    if (!element) return;
    setFollowing(true);
    element.currentTime = segment.start;
    // Refused playback (no user gesture, a browser without the codec) leaves it paused there.
    Promise.resolve(element.play()).catch(() => {});
  };

  return (
    <>
      <p className="whitespace-pre-wrap" data-testid="transcript" dir="auto">
        {pieces.map((piece, i) =>
          piece.segment ? (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one transcript, in order
              key={i}
              ref={(button) => {
                if (piece.index === found) foundRef.current = button;
                if (piece.index === playing) playingRef.current = button;
              }}
              type="button"
              title={MESSAGES.playFromHere}
              aria-current={piece.index === playing ? "true" : undefined}
              className={`inline cursor-pointer rounded-sm text-start align-baseline ${
                piece.index === playing ? "bg-amber-200" : "hover:bg-amber-50"
              }`}
              onClick={() => piece.segment && playFrom(piece.segment)}
            >
              {piece.text}
            </button>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one transcript, in order
            <span key={i}>{piece.text}</span>
          ),
        )}
      </p>
      {audioPlaying && !following ? (
        <div className="pointer-events-none fixed inset-x-0 bottom-0 z-30 flex justify-center p-4">
          <Button
            variant="secondary"
            className="pointer-events-auto shadow-md"
            onClick={() => setFollowing(true)}
          >
            {MESSAGES.followTheVoice}
          </Button>
        </div>
      ) : null}
    </>
  );
}
