import type { Comment } from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import type { Identity } from "../auth/session.service";
import { badRequest, forbidden, notFound, unauthorized } from "../http-errors";
import type { JobsRepo } from "../jobs/jobs.repo";
import type { MemoriesService } from "../memories/memories.service";
import { type CommentsRepo, toCommentDto } from "./comments.repo";

export const TRANSCRIBE_COMMENT_JOB = "transcribe-comment";
const ONLY_OWNER_REMOVES = "Only the memory's owner can remove comments";
const AUDIO_NOT_YOURS = "audioUrl: upload the recording first";

/**
 * Spoken comments: anyone who can see a memory may comment on it (PRODUCT.md); the memory's
 * owner may remove comments. The audio is stored before the comment exists; its transcript is
 * made by a durable job, so a restart or a provider failure never loses it.
 */
export class CommentsService {
  constructor(
    private readonly repo: CommentsRepo,
    private readonly memories: MemoriesService,
    private readonly audio: AudioService,
    private readonly jobs: JobsRepo,
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
    await this.memories.getVisibleRow(memoryId, identity);
    const upload = await this.audio.findUploadForOwner(input.audioUrl, identity);
    if (!upload || (await this.audio.isReferenced(upload.id))) throw badRequest(AUDIO_NOT_YOURS);
    const row = await this.repo.transaction(async (trx) => {
      const created = await this.repo.create(
        { memoryId, commenterName: input.commenterName, audioId: upload.id },
        trx,
      );
      await this.jobs.enqueue({ kind: TRANSCRIBE_COMMENT_JOB, targetId: created.id }, trx);
      return created;
    });
    return toCommentDto(row);
  }

  async remove(memoryId: string, commentId: string, identity: Identity): Promise<void> {
    const memory = await this.memories.getVisibleRow(memoryId, identity);
    const comment = await this.repo.findById(commentId);
    if (!comment || comment.memory_id !== memoryId) throw notFound();
    if (!identity.userId) throw unauthorized();
    if (memory.user_id !== identity.userId) throw forbidden(ONLY_OWNER_REMOVES);
    const deleted = await this.repo.delete(commentId);
    // The row goes first: a crash here leaves an orphan file, never a comment without audio.
    if (deleted?.audioId) await this.audio.deleteAudio(deleted.audioId).catch(() => undefined);
  }
}
