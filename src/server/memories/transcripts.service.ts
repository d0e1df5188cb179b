import { can } from "../../shared/authorization";
import type { Memory } from "../../shared/schemas";
import { type TranscriptInfo, toWebVtt } from "../../shared/transcript";
import type { BetterSpeech } from "../ai/ai-factory";
import type { Identity } from "../auth/session.service";
import type { Transactions } from "../db/transactions";
import { badRequest, conflict, notFound, unauthorized } from "../http-errors";
import type { JobsRepo } from "../jobs/jobs.repo";
import { ownJournalId } from "../journals/journals.repo";
import type { MemoriesRepo, MemoryRow } from "./memories.repo";
import type { MemoriesService } from "./memories.service";
import { PROCESS_MEMORY_JOB } from "./memory-pipeline";
import { mayRetranscribe, parseSegments, segmentsOf } from "./memory-row";

export interface TranscriptsDeps {
  repo: MemoriesRepo;
  memories: Pick<MemoriesService, "getVisibleRow" | "getOwnedRow" | "getVisible">;
  jobs: JobsRepo;
  transactions: Transactions;
  /** The better speech engine than the fallback that is there now (a server, Whisper), if any. */
  betterSpeech: () => BetterSpeech;
  /** Wakes this process's worker so processing starts at once. */
  onQueued: () => void;
}

/**
 * A memory's transcript as it was made: its engine, whether the owner edited it, its timed
 * segments and the captions made of them (whoever may hear the audio may read these); and
 * transcribing again what the fallback engine made, once a better one is there (ADR 0041), beside
 * the owner's edit when they edited it (ADR 0045).
 */
export class TranscriptsService {
  constructor(private readonly deps: TranscriptsDeps) {}

  /**
   * Whether the owner may have this memory transcribed again now. Memories transcribed before
   * engines were recorded are offered only with Whisper there (ADR 0045).
   */
  private canRetranscribe(row: MemoryRow): boolean {
    const better = this.deps.betterSpeech();
    return better !== null && mayRetranscribe(row, better === "whisper");
  }

  /** GET /api/memories/{id}/transcript; 404 for a memory the caller may not see. */
  async info(id: string, identity: Identity): Promise<TranscriptInfo> {
    const row = await this.deps.memories.getVisibleRow(id, identity);
    const owner = can(identity, "memory.edit", row);
    return {
      engine: row.transcript_engine,
      edited: row.transcript_edited === 1,
      segments: segmentsOf(row),
      retranscribe: owner && this.canRetranscribe(row),
      proposal:
        owner && row.proposed_transcript !== null
          ? {
              transcript: row.proposed_transcript,
              segments: parseSegments(row.proposed_segments),
              engine: row.proposed_engine ?? "",
            }
          : null,
    };
  }

  /** GET /api/memories/{id}/captions.vtt: WebVTT cues of the timed segments (none: no cues). */
  async captions(id: string, identity: Identity): Promise<string> {
    return toWebVtt(segmentsOf(await this.deps.memories.getVisibleRow(id, identity)));
  }

  /**
   * POST /api/memories/{id}/retranscribe: the durable pipeline runs again from transcription, and
   * the title, summary, scores and tags are made from the new transcript; a transcript the owner
   * edited is kept, and the new one is offered beside it. 401 logged out, 404 not visible, 403
   * someone else's, 409 while processing, 400 when there is nothing better to transcribe it with.
   */
  async retranscribe(id: string, identity: Identity): Promise<Memory> {
    const row = await this.deps.memories.getOwnedRow(id, identity);
    if (row.status === "processing") throw conflict("memory.already_processing");
    if (!this.canRetranscribe(row)) throw badRequest("memory.no_better_transcript");
    if (!(await this.start([id]))) throw conflict("memory.already_processing");
    return this.deps.memories.getVisible(id, identity);
  }

  /** GET /api/memories/retranscribe: how many of the caller's memories could be transcribed again. */
  async countRetranscribable(identity: Identity): Promise<number> {
    if (!identity.userId) throw unauthorized();
    const better = this.deps.betterSpeech();
    if (!better) return 0;
    return (
      await this.deps.repo.listRetranscribable(ownJournalId(identity.userId), better === "whisper")
    ).length;
  }

  /** Whether only the rough fallback can transcribe: no speech model and no server. */
  speechModelMissing(): boolean {
    return this.deps.betterSpeech() === null;
  }

  /** POST /api/memories/retranscribe: every one of them, queued; how many were. */
  async retranscribeAll(identity: Identity): Promise<number> {
    if (!identity.userId) throw unauthorized();
    const better = this.deps.betterSpeech();
    if (!better) return 0;
    return this.start(
      await this.deps.repo.listRetranscribable(ownJournalId(identity.userId), better === "whisper"),
    );
  }

  /**
   * POST /api/memories/{id}/proposed-transcript/accept: the owner takes the new transcription
   * offered beside their edit; its times and engine come with it. 409 while processing or with
   * no offer.
   */
  async acceptProposal(id: string, identity: Identity): Promise<Memory> {
    await this.deps.memories.getOwnedRow(id, identity);
    const result = await this.deps.repo.acceptProposal(id);
    if (result === undefined) throw notFound();
    if (result === "processing") throw conflict("memory.already_processing");
    if (result === "none") throw conflict("memory.no_proposed_transcript");
    return this.deps.memories.getVisible(id, identity);
  }

  /** POST /api/memories/{id}/proposed-transcript/dismiss: the owner keeps their transcript. */
  async dismissProposal(id: string, identity: Identity): Promise<void> {
    await this.deps.memories.getOwnedRow(id, identity);
    if (!(await this.deps.repo.dismissProposal(id))) {
      throw conflict("memory.no_proposed_transcript");
    }
  }

  /** Each memory back to processing at transcription with its job, in one transaction. */
  private async start(ids: string[]): Promise<number> {
    const unknownToo = this.deps.betterSpeech() === "whisper";
    const started = await this.deps.transactions.run(async (trx) => {
      let count = 0;
      for (const id of ids) {
        if (!(await this.deps.repo.startRetranscribe(id, unknownToo, trx))) continue;
        await this.deps.jobs.enqueue({ kind: PROCESS_MEMORY_JOB, targetId: id }, trx);
        count += 1;
      }
      return count;
    });
    if (started > 0) this.deps.onQueued();
    return started;
  }
}
