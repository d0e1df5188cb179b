import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { MESSAGES } from "../../../../shared/messages";
import type { TranscriptSegment } from "../../../../shared/transcript";

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

  const playFrom = (segment: TranscriptSegment) => {
    const element = audio.current;
    if (!element) return;
    element.currentTime = segment.start;
    // Refused playback (no user gesture, a browser without the codec) leaves it paused there.
    Promise.resolve(element.play()).catch(() => {});
  };

  return (
    <p className="whitespace-pre-wrap" data-testid="transcript">
      {pieces.map((piece, i) =>
        piece.segment ? (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one transcript, in order
            key={i}
            ref={piece.index === found ? foundRef : undefined}
            type="button"
            title={MESSAGES.playFromHere}
            aria-current={piece.index === playing ? "true" : undefined}
            className={`inline cursor-pointer rounded-sm text-left align-baseline ${
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
  );
}
