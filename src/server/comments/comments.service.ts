import { can, membershipOf } from "../../shared/authorization";
import type { Comment } from "../../shared/schemas";
import { toWebVtt } from "../../shared/transcript";
import type { AudioService } from "../audio/audio.service";
import type { Identity } from "../auth/session.service";
import type { Executor, Transactions } from "../db/transactions";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../http-errors";
import { newId } from "../ids";
import type { JobKind } from "../jobs/job-kinds";
import type { JobsRepo } from "../jobs/jobs.repo";
import type { MemoriesService, MemoryDependents } from "../memories/memories.service";
import { segmentsOf } from "../memories/memory-row";
import { type CommentRow, type CommentsRepo, toCommentDto } from "./comments.repo";
import type { RepliesService } from "./replies.service";

export const TRANSCRIBE_COMMENT_JOB = "transcribe-comment" satisfies JobKind;

/**
 * Spoken comments: anyone who can see a memory may comment on it (PRODUCT.md); the memory's
 * owner may remove comments. The audio is stored before the comment exists; its transcript is
 * made by a durable job, so a restart or a provider failure never loses it.
 */
export class CommentsService implements MemoryDependents {
  constructor(
    private readonly repo: CommentsRepo,
    private readonly memories: MemoriesService,
    private readonly audio: AudioService,
    private readonly jobs: JobsRepo,
    private readonly transactions: Transactions,
    /** A reply reaches the storyteller who told the memory (ADR 0063). */
    private readonly replies: Pick<RepliesService, "replied">,
  ) {}

  async list(memoryId: string, identity: Identity): Promise<Comment[]> {
    await this.memories.getVisibleRow(memoryId, identity);
    return (await this.repo.listForMemory(memoryId)).map(toCommentDto);
  }

  async create(
    memoryId: string,
    identity: Identity,
    input: { commenterName: string; audioUrl: string },
  ): Promise<Comment> {
    const memory = await this.memories.getVisibleRow(memoryId, identity);
    const upload = await this.audio.findUploadForOwner(input.audioUrl, identity);
    // Who replied, when a member did: their own replies are no news to a storyteller.
    const memberId = membershipOf(identity, memory.journal_id)?.memberId ?? null;
    if (!upload) throw badRequest("audio.upload_first");
    const id = newId();
    // The upload, the comment and its job commit together; of two uses of one upload one wins.
    const row = await this.transactions.run(async (trx): Promise<CommentRow | null> => {
      if (!(await this.audio.attach(upload.id, { kind: "comment", id }, trx))) return null;
      const created = await this.repo.create(
        { id, memoryId, commenterName: input.commenterName, audioId: upload.id, memberId },
        trx,
      );
      await this.jobs.enqueue({ kind: TRANSCRIBE_COMMENT_JOB, targetId: created.id }, trx);
      await this.replies.replied(memory, memberId, trx);
      return created;
    });
    if (!row) throw conflict("audio.already_used");
    return toCommentDto(row);
  }

  /**
   * A comment's captions as WebVTT, one cue per timed segment (none yet: no cues), for whoever
   * may hear its audio: whoever may see its memory; 404 otherwise, as for the audio.
   */
  async captions(memoryId: string, commentId: string, identity: Identity): Promise<string> {
    await this.memories.getVisibleRow(memoryId, identity);
    const comment = await this.repo.findById(commentId);
    if (!comment || comment.memory_id !== memoryId) throw notFound();
    return toWebVtt(segmentsOf(comment));
  }

  async remove(memoryId: string, commentId: string, identity: Identity): Promise<void> {
    const memory = await this.memories.getVisibleRow(memoryId, identity);
    const comment = await this.repo.findById(commentId);
    if (!comment || comment.memory_id !== memoryId) throw notFound();
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "memory.edit", memory)) throw forbidden("comment.only_owner_removes");
    // Rows first, in one transaction; then the file: a crash leaves an orphan file at worst.
    const storageKeys = await this.transactions.run(async (trx) => {
      const deleted = await this.repo.delete(commentId, trx);
      if (!deleted) throw notFound();
      return deleted.audioId ? this.audio.deleteRows([deleted.audioId], trx) : [];
    });
    await this.audio.removeFiles(storageKeys);
  }

  /** A memory's replies for whoever may see it, as rows (a recording link plays them on its path). */
  async listRows(memoryId: string, identity: Identity): Promise<CommentRow[]> {
    await this.memories.getVisibleRow(memoryId, identity);
    return this.repo.listForMemory(memoryId);
  }

  /** One reply of a memory `identity` may see; 404 otherwise. */
  async findVisible(memoryId: string, commentId: string, identity: Identity): Promise<CommentRow> {
    await this.memories.getVisibleRow(memoryId, identity);
    const comment = await this.repo.findById(commentId);
    if (!comment || comment.memory_id !== memoryId) throw notFound();
    return comment;
  }

  /** The memory a comment belongs to (to decide who may hear its audio). */
  memoryIdOf(commentId: string): Promise<string | null> {
    return this.repo.memoryIdOf(commentId);
  }

  /** A memory's comments, for its backup. */
  listForMemories(memoryIds: readonly string[]): Promise<CommentRow[]> {
    return this.repo.listForMemories(memoryIds);
  }

  /** Part of restoring a memory: a comment as it was backed up, in the memory's transaction. */
  importComment(row: CommentRow, trx: Executor): Promise<void> {
    return this.repo.insertRow(row, trx);
  }

  /** Part of deleting memories (one, or an account's): their comments go in the same transaction. */
  deleteForMemories(memoryIds: readonly string[], trx: Executor): Promise<string[]> {
    return this.repo.deleteForMemories(memoryIds, trx);
  }
}
