import type { Expression, ExpressionBuilder, Selectable, SqlBool } from "kysely";
import type { MemoryStatus, PipelineStage } from "../../shared/schemas";
import {
  FALLBACK_ENGINE,
  type TranscriptSegment,
  transcriptSegmentsSchema,
} from "../../shared/transcript";
import type { Database, MemoriesTable } from "../db/schema";
import type { SearchableFields } from "../db/search-words";
import { newId, nowIso } from "../ids";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";

/** A memory as the repository reads it. */
export type MemoryRow = Selectable<MemoriesTable>;

/** What a new memory row needs; everything else has a sensible default. */
export interface NewMemory {
  id?: string;
  /** The account that recorded it (null: unclaimed, or a storyteller without an account). */
  userId: string | null;
  /** Its journal and the member who told it: the account's own when absent; null while unclaimed. */
  journalId?: string | null;
  storytellerId?: string | null;
  anonOwnerHash?: string | null;
  claimExpiresAt?: string | null;
  audioId: string | null;
  title?: string;
  transcript?: string;
  summary?: string;
  scores?: Record<string, number>;
  duration?: number;
  recordedAt?: string;
  tags?: string[];
  status: MemoryStatus;
  stage?: PipelineStage | null;
  error?: string | null;
  /** Defaults to now; a restored memory keeps its original. */
  createdAt?: string;
  /** The question shown while it was recorded, if any. */
  question?: string | null;
  /** The spoken language, when known (a restored memory keeps its own). */
  language?: string | null;
  /** How the transcript was made (a restored memory keeps its own). */
  transcriptEngine?: string | null;
  transcriptSegments?: TranscriptSegment[] | null;
  transcriptEdited?: boolean;
}

/** The fields an owner may change through PUT /api/memories/{id}. */
export interface MemoryEdit {
  title: string;
  transcript: string;
  summary: string;
  recordedAt: string;
  tags: string[];
  /** The owner took the question off: it answers none from now on. */
  removeQuestion?: boolean;
}

/** Every column of a memory row (PostgreSQL's generated search_vector never leaves the database). */
export const COLUMNS = [
  "seq",
  "id",
  "user_id",
  "journal_id",
  "storyteller_id",
  "anon_owner_hash",
  "claim_expires_at",
  "audio_id",
  "title",
  "transcript",
  "summary",
  "scores",
  "duration",
  "recorded_at",
  "tags",
  "status",
  "stage",
  "error",
  "language",
  "created_at",
  "updated_at",
  "question",
  "transcript_engine",
  "transcript_segments",
  "transcript_edited",
  "proposed_transcript",
  "proposed_segments",
  "proposed_engine",
] as const satisfies readonly (keyof MemoriesTable)[];

/** The columns search indexes (SearchableFields). */
export const SEARCHED = ["seq", "journal_id", "title", "tags", "summary", "transcript"] as const;

export function toValues(input: NewMemory) {
  const now = nowIso();
  return {
    id: input.id ?? newId(),
    user_id: input.userId,
    // An account's recording goes to its own journal unless another is named.
    journal_id: input.journalId ?? (input.userId ? ownJournalId(input.userId) : null),
    storyteller_id: input.storytellerId ?? (input.userId ? ownMemberId(input.userId) : null),
    anon_owner_hash: input.anonOwnerHash ?? null,
    claim_expires_at: input.claimExpiresAt ?? null,
    audio_id: input.audioId,
    title: input.title ?? "",
    transcript: input.transcript ?? "",
    summary: input.summary ?? "",
    scores: JSON.stringify(input.scores ?? {}),
    duration: input.duration ?? 0,
    recorded_at: input.recordedAt ?? now,
    tags: JSON.stringify(input.tags ?? []),
    status: input.status,
    stage: input.stage ?? null,
    error: input.error ?? null,
    created_at: input.createdAt ?? now,
    updated_at: now,
    question: input.question ?? null,
    language: input.language ?? null,
    transcript_engine: input.transcriptEngine ?? null,
    transcript_segments: segmentsJson(input.transcriptSegments),
    transcript_edited: input.transcriptEdited ? 1 : 0,
  };
}

/** A new transcription offered beside the owner's edit (ADR 0045). */
export interface TranscriptProposal {
  transcript: string;
  segments: TranscriptSegment[];
  engine: string;
}

/**
 * Which memories may be transcribed again once a better engine is there (ADR 0041, 0045): the
 * fallback's (beside the owner's edit when they edited it, once, and only a saved memory); with
 * Whisper there (`unknownToo`), also those transcribed before engines were recorded that the
 * owner has not edited. Never while processing. `mayRetranscribe` is the same rule for one row.
 */
export function retranscribableWhere(
  eb: ExpressionBuilder<Database, "memories">,
  unknownToo: boolean,
): Expression<SqlBool> {
  const notProcessing = eb("status", "in", ["saved", "failed"]);
  const fallback = eb.and([
    eb("transcript_engine", "=", FALLBACK_ENGINE),
    eb.or([
      eb.and([eb("transcript_edited", "=", 0), notProcessing]),
      eb.and([eb("proposed_engine", "is", null), eb("status", "=", "saved")]),
    ]),
  ]);
  if (!unknownToo) return fallback;
  return eb.or([
    fallback,
    eb.and([
      eb("transcript_engine", "is", null),
      eb("transcript_edited", "=", 0),
      eb("transcript", "<>", ""),
      notProcessing,
    ]),
  ]);
}

export function mayRetranscribe(row: MemoryRow, unknownToo: boolean): boolean {
  const notProcessing = row.status === "saved" || row.status === "failed";
  const unedited = row.transcript_edited === 0;
  if (row.transcript_engine === FALLBACK_ENGINE) {
    return unedited ? notProcessing : row.proposed_engine === null && row.status === "saved";
  }
  return (
    unknownToo &&
    row.transcript_engine === null &&
    unedited &&
    row.transcript !== "" &&
    notProcessing
  );
}

/** Timed segments as a row keeps them: JSON, or null without any. */
export function segmentsJson(segments: readonly TranscriptSegment[] | null | undefined) {
  return segments?.length ? JSON.stringify(segments) : null;
}

/** A row's timed segments; none when there are none or they cannot be read. */
export function segmentsOf(row: { transcript_segments: string | null }): TranscriptSegment[] {
  return parseSegments(row.transcript_segments);
}

/** Stored segments (JSON); none when there are none or they cannot be read. */
export function parseSegments(json: string | null): TranscriptSegment[] {
  if (!json) return [];
  try {
    const parsed = transcriptSegmentsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The fields of a row the search index reads. */
export function searchable(row: MemoryRow): SearchableFields {
  return {
    seq: Number(row.seq),
    journal_id: row.journal_id,
    title: row.title,
    tags: row.tags,
    summary: row.summary,
    transcript: row.transcript,
  };
}

/** What a processing stage produced; only the fields given are written. */
export interface StageOutput {
  transcript?: string;
  duration?: number;
  /** The detected spoken language; null clears one an earlier attempt stored. */
  language?: string | null;
  /** The engine that made the transcript, and its timed segments (none: null). */
  transcriptEngine?: string | null;
  transcriptSegments?: TranscriptSegment[];
  summary?: string;
  title?: string;
  scores?: Record<string, number>;
  tags?: string[];
}

/** A stage's output as column values. */
export function stageOutputValues(output: StageOutput) {
  return {
    ...(output.transcript !== undefined ? { transcript: output.transcript } : {}),
    ...(output.duration !== undefined ? { duration: output.duration } : {}),
    ...(output.language !== undefined ? { language: output.language } : {}),
    ...(output.transcriptEngine !== undefined
      ? { transcript_engine: output.transcriptEngine }
      : {}),
    ...(output.transcriptSegments !== undefined
      ? { transcript_segments: segmentsJson(output.transcriptSegments) }
      : {}),
    ...(output.summary !== undefined ? { summary: output.summary } : {}),
    ...(output.title !== undefined ? { title: output.title } : {}),
    ...(output.scores !== undefined ? { scores: JSON.stringify(output.scores) } : {}),
    ...(output.tags !== undefined ? { tags: JSON.stringify(output.tags) } : {}),
    updated_at: nowIso(),
  };
}
