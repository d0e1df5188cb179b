import { normalizeScores } from "../../shared/rules";
import {
  MEMORY_STATUSES,
  type Memory,
  type MemoryStatus,
  type Photo,
  PIPELINE_STAGES,
  type PipelineStage,
} from "../../shared/schemas";
import type { MemoryRow } from "./memory-search";

function parseJson(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function parseTags(text: string): string[] {
  const value = parseJson(text, []);
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
}

/**
 * The API shape of a memory row (spec section 3 field names) with its photos, cover first
 * (`MemoriesService.toDto` looks them up); shared with the pipeline.
 */
export function toMemoryDto(row: MemoryRow, photos: Photo[] = []): Memory {
  const status = (MEMORY_STATUSES as readonly string[]).includes(row.status)
    ? (row.status as MemoryStatus)
    : "failed";
  const stage = (PIPELINE_STAGES as readonly string[]).includes(row.stage ?? "")
    ? (row.stage as PipelineStage)
    : null;
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    audioUrl: row.audio_id ? `/api/audio/${row.audio_id}` : "",
    transcript: row.transcript,
    summary: row.summary,
    scores: normalizeScores(parseJson(row.scores, {})),
    duration: Number(row.duration),
    recordedAt: row.recorded_at,
    tags: parseTags(row.tags),
    status,
    stage,
    error: row.error,
    createdAt: row.created_at,
    question: row.question ?? null,
    language: row.language ?? null,
    photos,
    // No memory is stored in a family journal yet: every one is its owner's own.
    journalId: null,
    storyteller: null,
  };
}
