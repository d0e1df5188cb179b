import { z } from "zod";

/**
 * Every kind of job and the payload it carries (the `target_id` column). Payloads are validated
 * when queued and again when taken, so a bad row can never reach a handler.
 */
export const JOB_KINDS = {
  /** Runs the AI pipeline of one memory (transcribe, summarize, score, tag, save). */
  "process-memory": z.string().min(1).max(100),
  /** Transcribes one spoken comment (its id). */
  "transcribe-comment": z.string().min(1).max(100),
  /** Mails a journal's relatives the memories saved since each one's last mail (the journal's id). */
  "relative-news": z.string().min(1).max(100),
  /** Tells whoever asked a family question that it was answered (the question's id). */
  "family-question-answered": z.string().min(1).max(100),
  /** Mails a storyteller the replies to their stories since their last such mail (the member's id). */
  "storyteller-replies": z.string().min(1).max(100),
  /** Mails a storyteller the weekly question once on their local day ("<journal>/<member>/<date>"). */
  "weekly-question": z
    .string()
    .max(150)
    .regex(/^[^/]+\/[^/]+\/\d{4}-\d{2}-\d{2}$/),
} as const;

export type JobKind = keyof typeof JOB_KINDS;

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(JOB_KINDS, kind);
}

/** Throws when the target is not a valid payload for the kind. */
export function validateJobTarget(kind: string, targetId: unknown): string {
  if (!isJobKind(kind)) throw new Error(`Unknown job kind: ${kind}`);
  const parsed = JOB_KINDS[kind].safeParse(targetId);
  if (!parsed.success) throw new Error(`Invalid payload for job ${kind}: ${parsed.error.message}`);
  return parsed.data;
}
