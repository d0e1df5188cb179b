import { can, membershipOf } from "../../shared/authorization";
import { normalizeScores, normalizeTags } from "../../shared/rules";
import type { Memory, MemoryCreateBody, ProcessMemoryBody } from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import type { Identity } from "../auth/session.service";
import type { Config } from "../config";
import type { Executor, Transactions } from "../db/transactions";
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
} from "../http-errors";
import { libraryQuestion } from "../i18n/questions";
import { newId } from "../ids";
import type { JobsRepo } from "../jobs/jobs.repo";
import { ownJournalId } from "../journals/journals.repo";
import type { MemoriesRepo, MemoryRow, NewMemory } from "./memories.repo";
import type { MemoriesService } from "./memories.service";
import { PROCESS_MEMORY_JOB } from "./memory-pipeline";

/** What this service needs of the audio feature (AudioService implements it). */
export type Uploads = Pick<
  AudioService,
  "findUploadForOwner" | "attach" | "attachmentOf" | "setUploader"
>;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The question a recording answers as it is kept: a built-in one as the library's own (English)
 * words, whichever language asked it, so every reader reads it in theirs; any other as it was.
 */
function keptQuestion(question: string | undefined): string | null {
  return question ? libraryQuestion(question) : null;
}

/**
 * Turning an upload into a memory: creating it in state 'processing' and queueing its pipeline in
 * one transaction, retrying a failed one, claiming an anonymous one, and the direct create.
 */
export class MemoryProcessingService {
  constructor(
    private readonly repo: MemoriesRepo,
    private readonly memories: MemoriesService,
    private readonly jobs: JobsRepo,
    private readonly uploads: Uploads,
    private readonly transactions: Transactions,
    private readonly config: Pick<Config, "CLAIM_WINDOW_HOURS" | "ANON_DAILY_RECORDINGS">,
    /** Wakes this process's worker so processing starts at once. */
    private readonly onQueued: () => void = () => {},
    /** Runs in the transaction that creates a saved memory (relatives' news queues its mail). */
    private readonly onSaved: (memory: MemoryRow, trx: Executor) => Promise<void> = async () => {},
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Needs `identity.visitorHash` for an anonymous caller (the route ensures the visitor cookie). */
  async startProcessing(
    identity: Identity,
    body: ProcessMemoryBody,
  ): Promise<{ memory: Memory; created: boolean }> {
    const upload = await this.uploads.findUploadForOwner(body.audioUrl, identity);
    if (!upload) throw badRequest("audio.not_yours");
    const now = this.now();
    const anonymous = identity.userId === null;
    if (anonymous) {
      if (!identity.visitorHash) throw badRequest("audio.not_yours");
      const today = await this.repo.countAnonymousSince(
        identity.visitorHash,
        new Date(now.getTime() - DAY_MS),
      );
      if (today >= this.config.ANON_DAILY_RECORDINGS) throw tooManyRequests("memory.daily_limit");
    }
    const created = await this.createOnUpload(upload.id, {
      userId: identity.userId,
      ...(anonymous ? {} : tellerIn(identity, body.journalId)),
      anonOwnerHash: anonymous ? identity.visitorHash : null,
      claimExpiresAt: anonymous
        ? new Date(now.getTime() + this.config.CLAIM_WINDOW_HOURS * HOUR_MS).toISOString()
        : null,
      audioId: upload.id,
      recordedAt: new Date(body.recordedAt ?? now).toISOString(),
      question: keptQuestion(body.question),
      status: "processing",
      stage: "transcribe",
    });
    if (created) {
      this.onQueued();
      return { memory: await this.memories.toDto(created), created: true };
    }
    // Sent again (the browser retried after losing the answer, or raced itself): the same owner
    // gets the same memory; anyone else, or a recording used by a comment, gets 409.
    const attachment = await this.uploads.attachmentOf(upload.id);
    const row = attachment?.kind === "memory" ? await this.repo.findById(attachment.id) : undefined;
    if (!row || !can(identity, "memory.retry", row)) throw conflict("audio.already_used");
    return { memory: await this.memories.toDto(row), created: false };
  }

  /**
   * Through a storyteller's personal recording link (ADR 0060): the memory is saved in the link's
   * journal as told by its member (the member's account, or none), on a recording this browser
   * uploaded. 404 when the link's member may not record there.
   */
  async startThroughLink(
    identity: Identity,
    link: { journalId: string; memberId: string; userId: string | null },
    body: Pick<ProcessMemoryBody, "audioUrl" | "recordedAt" | "question">,
  ): Promise<{ memory: Memory; created: boolean }> {
    if (!can(identity, "link.record", { id: link.journalId })) throw notFound();
    const upload = await this.uploads.findUploadForOwner(body.audioUrl, identity);
    if (!upload) throw badRequest("audio.not_yours");
    const created = await this.createOnUpload(upload.id, {
      userId: link.userId,
      journalId: link.journalId,
      storytellerId: link.memberId,
      anonOwnerHash: null,
      claimExpiresAt: null,
      audioId: upload.id,
      recordedAt: new Date(body.recordedAt ?? this.now()).toISOString(),
      question: keptQuestion(body.question),
      status: "processing",
      stage: "transcribe",
    });
    if (created) {
      this.onQueued();
      return { memory: await this.memories.toDto(created), created: true };
    }
    // Sent again: the same story when the link told it; anything else is someone else's.
    const attachment = await this.uploads.attachmentOf(upload.id);
    const row = attachment?.kind === "memory" ? await this.repo.findById(attachment.id) : undefined;
    const throughLink = { userId: null, recordingFor: identity.recordingFor };
    if (!row || !can(throughLink, "memory.view", { memory: row, journal: undefined })) {
      throw conflict("audio.already_used");
    }
    return { memory: await this.memories.toDto(row), created: false };
  }

  /**
   * Attaches the upload to a new memory and creates it (queueing its pipeline when processing) in
   * one transaction. Null when the upload already belongs to a memory or comment.
   */
  private async createOnUpload(
    audioId: string,
    input: Omit<NewMemory, "id">,
  ): Promise<MemoryRow | null> {
    const id = newId();
    return this.transactions.run(async (trx) => {
      if (!(await this.uploads.attach(audioId, { kind: "memory", id }, trx))) return null;
      const row = await this.repo.insert({ ...input, id }, trx);
      if (input.status === "processing") {
        await this.jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: id }, trx);
      } else if (input.status === "saved") {
        await this.onSaved(row, trx);
      }
      return row;
    });
  }

  /** The owner (or the anonymous browser that recorded it) resumes a failed memory at its stage. */
  async retry(id: string, identity: Identity): Promise<Memory> {
    const row = await this.memories.getVisibleRow(id, identity);
    // Someone who can see a shared memory but does not own it learns nothing more than a 404.
    if (!can(identity, "memory.retry", row)) throw notFound();
    const resumed = await this.transactions.run(async (trx) => {
      if (!(await this.repo.resumeFailed(id, trx))) return false;
      await this.jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: id }, trx);
      return true;
    });
    if (!resumed) throw conflict("memory.only_failed_retry");
    this.onQueued();
    return this.memories.getVisible(id, identity);
  }

  /**
   * The owner asks for the summary, title, scores and tags to be made again from the transcript
   * (after correcting it): the same durable pipeline runs from its summarize stage. 401 logged
   * out, 404 not visible, 403 someone else's, 409 while processing, 400 without a transcript.
   */
  async regenerate(id: string, identity: Identity): Promise<Memory> {
    const row = await this.memories.getOwnedRow(id, identity);
    if (row.status === "processing") throw conflict("memory.already_processing");
    if (!row.transcript.trim()) throw badRequest("memory.no_transcript");
    const started = await this.transactions.run(async (trx) => {
      if (!(await this.repo.startRegenerate(id, trx))) return false;
      await this.jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: id }, trx);
      return true;
    });
    // Another request started it between the read and the update.
    if (!started) throw conflict("memory.already_processing");
    this.onQueued();
    return this.memories.getVisible(id, identity);
  }

  /** Attaches an anonymous memory to the logged-in user: same browser, within the window, once. */
  async claim(id: string, identity: Identity): Promise<Memory> {
    if (!identity.userId) throw unauthorized();
    const row = await this.repo.findById(id);
    if (!row || !identity.visitorHash || !can(identity, "memory.claim", row)) throw notFound();
    const userId = identity.userId;
    const visitorHash = identity.visitorHash;
    // The memory and its upload change hands together.
    const claimed = await this.transactions.run(async (trx) => {
      const owner = { userId, ...tellerIn(identity, undefined) };
      if (!(await this.repo.claim(id, owner, visitorHash, this.now(), trx))) return false;
      if (row.audio_id) await this.uploads.setUploader(row.audio_id, userId, trx);
      return true;
    });
    const current = await this.repo.findById(id);
    if (claimed && current) return this.memories.toDto(current);
    if (!current) throw notFound();
    if (current.user_id !== null) throw conflict("memory.already_claimed");
    throw conflict("memory.claim_expired");
  }

  /** POST /api/memories: a saved memory from a full body, on audio this user uploaded. */
  async createDirect(identity: Identity, body: MemoryCreateBody): Promise<Memory> {
    if (!identity.userId) throw unauthorized();
    const upload = await this.uploads.findUploadForOwner(body.audioUrl, identity);
    if (!upload) throw badRequest("audio.not_yours");
    const tags = normalizeTags(body.tags ?? []);
    if (!tags) throw badRequest("memory.too_many_tags", undefined, "body.tags");
    const row = await this.createOnUpload(upload.id, {
      userId: identity.userId,
      ...tellerIn(identity, undefined),
      audioId: upload.id,
      title: body.title.trim(),
      transcript: body.transcript,
      summary: body.summary,
      scores: normalizeScores(body.scores ?? {}),
      duration: body.duration ?? 0,
      recordedAt: new Date(body.recordedAt).toISOString(),
      tags,
      status: "saved",
    });
    if (!row) throw conflict("audio.already_used");
    return this.memories.toDto(row);
  }
}

/**
 * The journal a logged-in person records in (`journalId`, or their own) and their membership
 * there: 404 for a journal they do not belong to, 403 for one they may not record in.
 */
function tellerIn(
  identity: Identity,
  journalId: string | undefined,
): { journalId: string; storytellerId: string } {
  const userId = identity.userId as string;
  const id = journalId ?? ownJournalId(userId);
  const membership = membershipOf(identity, id);
  if (!membership) throw notFound();
  if (!can(identity, "journal.record", { id })) throw forbidden("journal.cannot_record");
  return { journalId: id, storytellerId: membership.memberId };
}
