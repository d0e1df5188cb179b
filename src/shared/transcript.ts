import { z } from "zod";

/**
 * A stretch of a transcript with the time it was spoken, in seconds from the start of the audio:
 * a Whisper segment (usually a sentence), or a run of pocketsphinx words between pauses.
 */
export const transcriptSegmentSchema = z.object({
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  text: z.string().min(1).max(10_000),
});
export type TranscriptSegment = z.infer<typeof transcriptSegmentSchema>;

/** A transcript's segments, in order (an hour of speech is well under a thousand). */
export const transcriptSegmentsSchema = z.array(transcriptSegmentSchema).max(20_000);

/**
 * GET /api/memories/{id}/transcript: how the transcript was made and its timed segments (empty
 * when the engine gave none). For the owner only: `retranscribe` is true when a better engine than
 * the one that made it is there now (ADR 0041, 0045), and `proposal` is a new transcription made
 * beside a transcript they edited, for them to keep theirs or take it (null otherwise).
 */
export const transcriptInfoSchema = z.object({
  engine: z.string().nullable(),
  edited: z.boolean(),
  segments: transcriptSegmentsSchema,
  retranscribe: z.boolean(),
  proposal: z
    .object({ transcript: z.string(), segments: transcriptSegmentsSchema, engine: z.string() })
    .nullable(),
});
export type TranscriptInfo = z.infer<typeof transcriptInfoSchema>;

/** The engine a transcript was made by when it was the rough offline fallback. */
export const FALLBACK_ENGINE = "pocketsphinx";

/**
 * Segments cleaned for storage: trimmed text, none empty, times inside [0, duration] with end not
 * before start, in order of start. A segment an engine placed past the audio's end is clamped.
 */
export function cleanSegments(
  segments: readonly TranscriptSegment[],
  duration: number,
): TranscriptSegment[] {
  const limit = Number.isFinite(duration) && duration > 0 ? duration : Number.POSITIVE_INFINITY;
  const round = (seconds: number) =>
    Math.round(Math.min(Math.max(seconds, 0), limit) * 1000) / 1000;
  return segments
    .map((segment) => {
      const start = round(segment.start);
      return { start, end: Math.max(start, round(segment.end)), text: segment.text.trim() };
    })
    .filter((segment) => segment.text.length > 0)
    .sort((a, b) => a.start - b.start);
}

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * After an owner's edit: the segments whose words are still in the transcript, in the same order,
 * keep their times; a segment whose words were changed loses its time (no time is invented for
 * new words).
 */
export function keepUnchangedSegments(
  segments: readonly TranscriptSegment[],
  transcript: string,
): TranscriptSegment[] {
  const text = normalize(transcript);
  const kept: TranscriptSegment[] = [];
  let from = 0;
  for (const segment of segments) {
    const words = normalize(segment.text);
    const at = text.indexOf(words, from);
    if (at < 0) continue;
    kept.push(segment);
    from = at + words.length;
  }
  return kept;
}

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** A WebVTT captions file of the segments (W3C WebVTT: header, blank line, then cues). */
export function toWebVtt(segments: readonly TranscriptSegment[]): string {
  const cues = segments.map(
    (segment, index) =>
      // "-->" and blank lines would end a cue early; "<" and "&" start markup. Every line
      // terminator (CR, LF, CRLF, and U+2028 and U+2029 for other readers) becomes one space.
      `${index + 1}\n${vttTime(segment.start)} --> ${vttTime(segment.end)}\n${segment.text
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/\s*[\r\n\u2028\u2029]\s*/g, " ")}`,
  );
  return `WEBVTT\n\n${cues.map((cue) => `${cue}\n\n`).join("")}`;
}

/** GET and POST /api/memories/retranscribe: how many memories a better engine could transcribe again. */
export const retranscribeCountSchema = z.object({
  count: z.number().int().nonnegative(),
  /** GET only: true while no engine better than the fallback is there (no speech model). */
  speechModelMissing: z.boolean().optional(),
});
