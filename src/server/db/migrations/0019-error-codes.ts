import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * The sentences a failed memory or comment stored before error codes, as the release before this
 * migration wrote them (frozen here: the catalogue's words may change, these never do).
 */
const TRANSCRIBE = "Transcription failed: ";
const STAGE_PREFIXES = [
  [TRANSCRIBE, "transcribe.failed"],
  ["Failed to summarize memory: ", "summarize.failed"],
  ["Failed to score memory: ", "score.failed"],
  ["Failed to generate tags: ", "tag.failed"],
] as const;
const WHOLE_SENTENCES: Record<string, string> = {
  "No speech was detected in the recording. Please try again and speak clearly into your microphone.":
    "transcribe.no_speech",
  [`${TRANSCRIBE}the recording is missing`]: "transcribe.recording_missing",
  "Failed to generate tags: Invalid tag format": "tag.invalid_format",
  "Processing had not finished when this was backed up. Please try again.": "processing.unfinished",
};
/** The codes a failed memory or comment stores (PROCESSING_ERROR_CODES, as of this migration). */
const CODES = new Set<string>([
  ...Object.values(WHOLE_SENTENCES),
  ...STAGE_PREFIXES.map(([, code]) => code),
  "save.failed",
  "processing.failed",
]);

/**
 * The code for a stored processing error: a code stays as it is, an older release's sentence
 * becomes its stage and reason, and any other text the generic `processing.failed`. Also used
 * when a backup made before codes is restored.
 */
export function processingErrorCode(text: string): string {
  if (CODES.has(text)) return text;
  const whole = WHOLE_SENTENCES[text];
  if (whole) return whole;
  return STAGE_PREFIXES.find(([prefix]) => text.startsWith(prefix))?.[1] ?? "processing.failed";
}

/** `memories.error` and `comments.error` hold a code (`transcribe.no_speech`), not a sentence. */
export const errorCodes: DialectMigration = {
  async up(db: Kysely<unknown>) {
    for (const table of ["memories", "comments"]) {
      const { rows } = await sql<{ error: string }>`
        select distinct error from ${sql.table(table)} where error is not null`.execute(db);
      for (const { error } of rows) {
        const code = processingErrorCode(error);
        if (code === error) continue;
        await sql`update ${sql.table(table)} set error = ${code} where error = ${error}`.execute(
          db,
        );
      }
    }
  },
};
