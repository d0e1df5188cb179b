import { commentPlayerLabel, MESSAGES } from "../../shared/messages";

/**
 * Most UTF-8 bytes of a title in a file name, and of a commenter's name: with the date, a
 * duplicate's " (2)" and the extension a name stays far below the 255 bytes file systems allow,
 * and a path under an unzipped folder below Windows' 260 characters.
 */
export const TITLE_MAX_BYTES = 80;
export const COMMENTER_MAX_BYTES = 40;

// Characters Windows refuses (and "/" everywhere), control characters, and the direction marks
// that could make "gpj.exe" read as "exe.jpg".
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** `text` cut to at most `maxBytes` of UTF-8, between whole characters (an accent stays on its letter). */
function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = "";
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > maxBytes) break;
    out += segment;
  }
  return out;
}

/**
 * `text` as part of a file name every system accepts: unsafe characters become spaces, spaces
 * collapse, the length is capped, and no dot or space ends it (Windows drops them). Composed
 * (NFC), so macOS and Linux name the same file alike. "" when nothing is left.
 */
export function safeFileText(text: string, maxBytes: number): string {
  const clean = (value: string) =>
    value
      .replace(/\s+/g, " ")
      .trim()
      .replace(/[. ]+$/, "");
  return clean(cutToBytes(clean(text.normalize("NFC").replace(UNSAFE, " ")), maxBytes));
}

/** The recorded day as `1962-06-01` (recorded dates are UTC days, as the memory book prints them). */
function recordedDay(recordedAt: string): string | null {
  const time = Date.parse(recordedAt);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/**
 * The names of one backup zip's files, taken in the order the zip is written: each memory's
 * recording is `audio/<date> <title>.<ext>`, a spoken comment's `audio/<date> <title> - Comment
 * by <name>.<ext>`, its photos `photos/<date> <title> <n>.jpg` (cover first). A second memory of the
 * same day and title is `<date> <title> (2)`. Names compare as the case-insensitive file systems of
 * Windows and macOS do, so no two files overwrite each other when the zip is unzipped there.
 */
export class BackupFileNames {
  private readonly stems = new Set<string>();
  private readonly paths = new Set<string>();

  /** A memory's own stem, `<date> <title>`, unique in this zip. */
  memoryStem(recordedAt: string, title: string): string {
    const text = safeFileText(title, TITLE_MAX_BYTES) || MESSAGES.untitledMemory;
    const day = recordedDay(recordedAt);
    return this.unique(this.stems, day ? `${day} ${text}` : text, "");
  }

  recording(stem: string, extension: string): string {
    return this.unique(this.paths, `audio/${stem}`, `.${extension}`);
  }

  commentRecording(stem: string, commenterName: string, extension: string): string {
    const name = safeFileText(commenterName, COMMENTER_MAX_BYTES);
    return this.recording(`${stem} - ${safeFileText(commentPlayerLabel(name), 255)}`, extension);
  }

  /** The `position`th photo (1 for the cover). */
  photo(stem: string, position: number): string {
    return this.unique(this.paths, `photos/${stem} ${position}`, ".jpg");
  }

  private unique(taken: Set<string>, base: string, extension: string): string {
    for (let n = 1; ; n++) {
      const name = `${base}${n === 1 ? "" : ` (${n})`}${extension}`;
      const key = name.toLowerCase();
      if (!taken.has(key)) {
        taken.add(key);
        return name;
      }
    }
  }
}
