import {
  DEFAULT_SCORE,
  DELETE_CONFIRMATION_WORD,
  DURATION_BYTES_PER_SECOND,
  GENERATED_TAG_COUNT,
  MAX_TAG_WORDS,
  MAX_TAGS,
  SCORE_DIMENSIONS,
  SCORE_MAX,
  SCORE_MIN,
} from "./constants";
import { MESSAGES } from "./messages";
import type { Scores } from "./schemas";

export type AddTagResult =
  | { ok: true; tags: string[] }
  | { ok: false; reason: "blank" | "max" | "duplicate" };

/** The edit rules of spec section 5: trimmed, blank ignored, at most 5, exact duplicates refused. */
export function addTag(tags: readonly string[], input: string): AddTagResult {
  const tag = input.trim();
  if (!tag) return { ok: false, reason: "blank" };
  if (tags.length >= MAX_TAGS) return { ok: false, reason: "max" };
  if (tags.includes(tag)) return { ok: false, reason: "duplicate" };
  return { ok: true, tags: [...tags, tag] };
}

/** Server-side tag cleanup: trims, drops blanks and exact duplicates; null when over the limit. */
export function normalizeTags(tags: readonly string[]): string[] | null {
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag && !result.includes(tag)) result.push(tag);
  }
  return result.length > MAX_TAGS ? null : result;
}

/**
 * Lowercase letters of any alphabet (so "cumpleaños" and "kühe" are words, as the transcript's
 * language needs) with their accents, and digits; no capitals, punctuation or symbols.
 */
const GENERATED_TAG_PATTERN = /^[\p{Ll}\p{Lo}\p{Mn}0-9]+( [\p{Ll}\p{Lo}\p{Mn}0-9]+)*$/u;

/** True when a tag is 1 to 3 lowercase words with no special characters. */
export function isValidGeneratedTag(tag: unknown): tag is string {
  if (typeof tag !== "string" || !GENERATED_TAG_PATTERN.test(tag)) return false;
  return tag.split(" ").length <= MAX_TAG_WORDS;
}

/** Generated tags that are not 3 valid, distinct ones: the spec's 'Invalid tag format'. */
export class InvalidTagFormatError extends Error {
  override name = "InvalidTagFormatError";
  constructor() {
    super(MESSAGES.invalidTagFormat);
  }
}

/** Exactly 3 valid, distinct tags, or an InvalidTagFormatError ('Invalid tag format'). */
export function validateGeneratedTags(value: unknown): string[] {
  if (
    !Array.isArray(value) ||
    value.length !== GENERATED_TAG_COUNT ||
    !value.every(isValidGeneratedTag) ||
    new Set(value).size !== value.length
  ) {
    throw new InvalidTagFormatError();
  }
  return [...value];
}

/** An integer 1 to 10, or the default 5 when missing or invalid. */
export function normalizeScore(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) return DEFAULT_SCORE;
  const rounded = Math.round(n);
  if (rounded < SCORE_MIN || rounded > SCORE_MAX) return DEFAULT_SCORE;
  return rounded;
}

export function normalizeScores(value: unknown): Scores {
  const source = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  // A plain loop: this runs for every memory of every page served (no arrays built per dimension).
  const scores: Partial<Scores> = {};
  for (const dimension of SCORE_DIMENSIONS) scores[dimension] = normalizeScore(source[dimension]);
  return scores as Scores;
}

/**
 * The title of a memory is the first sentence of its summary. Chinese ends a sentence with "。",
 * "！" or "？" and no space after it; Arabic asks with "؟".
 */
export function titleFromSummary(summary: string): string {
  const text = summary.trim().replace(/\s+/g, " ");
  const match = /^.*?(?:[.!?؟](?=\s|$)|[。！？])/.exec(text);
  return (match ? match[0] : text).trim();
}

/** Spec: estimated duration = audio size / 16000 (seconds). */
export function estimateDuration(bytes: number): number {
  return bytes / DURATION_BYTES_PER_SECOND;
}

/** The delete action is enabled once the typed text equals 'delete', in any case. */
export function isDeleteConfirmed(typed: string): boolean {
  return typed.trim().toLowerCase() === DELETE_CONFIRMATION_WORD;
}

/** Scores are shown as bars of value x10 percent. */
export function scoreBarPercent(value: number): number {
  return Math.max(0, Math.min(100, value * 10));
}

/**
 * Whether the owner may edit a memory now: not while its processing runs, because the pipeline
 * owns its fields until it ends (ADR 0011). The server refuses such an edit with 409.
 */
export function isEditable(memory: { status: string }): boolean {
  return memory.status !== "processing";
}

/**
 * Whether processing a failed memory again could help, by its error code: not when the recording
 * holds no speech or is gone (Retry would fail the same way; the family deletes it and records again).
 */
export function canRetryProcessing(code: string | null): boolean {
  return code !== "transcribe.no_speech" && code !== "transcribe.recording_missing";
}
