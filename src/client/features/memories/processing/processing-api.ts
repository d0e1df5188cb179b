import { MESSAGES } from "../../../../shared/messages";
import {
  type Memory,
  memorySchema,
  type PipelineStage,
  type ProcessMemoryBody,
} from "../../../../shared/schemas";
import { getJson, requestJson } from "../../../lib/api-client";
import { memoryUrl } from "../api/memory-keys";

/** Each stage's notice in the catalogue, in the order the server runs the stages. */
const STAGE_NOTICE_KEYS = {
  transcribe: "transcribing",
  summarize: "summarizing",
  score: "scoring",
  tag: "tagging",
  save: "saving",
} as const satisfies Record<PipelineStage, keyof typeof MESSAGES>;

/**
 * The notice shown while the server runs a stage (the recorder shows convert and upload), read
 * when it shows, so it speaks the page's language.
 */
export function stageNotice(stage: PipelineStage): string {
  return MESSAGES[STAGE_NOTICE_KEYS[stage]];
}

/**
 * The pipeline's stages in the order the server runs them (PIPELINE_STAGES in shared/schemas,
 * which a test checks; that module brings zod, which the first page does without).
 */
export const STAGE_ORDER = Object.keys(STAGE_NOTICE_KEYS) as PipelineStage[];

/** POST /api/memories/process: the memory, in state 'processing' (or as it is, when sent again). */
export async function startProcessing(body: ProcessMemoryBody): Promise<Memory> {
  return requestJson("POST", "/api/memories/process", memorySchema, body);
}

/** GET /api/memories/{id}: polled for progress. */
export async function fetchMemory(id: string): Promise<Memory> {
  return getJson(memoryUrl(id), memorySchema);
}

/** POST /api/memories/{id}/retry: resumes a failed memory at the stage that failed. */
export async function retryProcessing(id: string): Promise<Memory> {
  return requestJson("POST", `${memoryUrl(id)}/retry`, memorySchema);
}

/**
 * POST /api/memories/{id}/regenerate: the memory, back in processing at the summarize stage, so
 * its summary, title, scores and tags are made again from its transcript.
 */
export async function regenerateMemory(id: string): Promise<Memory> {
  return requestJson("POST", `${memoryUrl(id)}/regenerate`, memorySchema);
}

/** POST /api/memories/{id}/claim: attaches a memory recorded while logged out to the new account. */
export async function claimMemory(id: string): Promise<Memory> {
  return requestJson("POST", `${memoryUrl(id)}/claim`, memorySchema);
}
