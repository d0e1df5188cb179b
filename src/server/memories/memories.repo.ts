import type { ExpressionBuilder, Kysely, Updateable } from "kysely";
import type { ProcessingErrorCode } from "../../shared/messages";
import type { PipelineStage } from "../../shared/schemas";
import { keepUnchangedSegments } from "../../shared/transcript";
import type { DatabaseKind } from "../db/connection";
import type { Database, MemoriesTable } from "../db/schema";
import { type Executor, inTransaction } from "../db/transactions";
import { nowIso } from "../ids";
import {
  type MonthCount,
  monthsOf,
  pageOf,
  totalOf,
  type YearCount,
  yearsOf,
} from "./memory-paging";
import {
  COLUMNS,
  type MemoryEdit,
  type MemoryRow,
  type NewMemory,
  retranscribableWhere,
  SEARCHED,
  type StageOutput,
  searchable,
  segmentsJson,
  segmentsOf,
  stageOutputValues,
  type TranscriptProposal,
  toValues,
} from "./memory-row";
import type { MemoryScope, MemorySearch, RowPage } from "./memory-search";
import { PostgresMemorySearch } from "./memory-search.postgres";
import { SqliteMemorySearch } from "./memory-search.sqlite";

export type { MonthCount, YearCount } from "./memory-paging";
export type { MemoryEdit, MemoryRow, NewMemory } from "./memory-row";
export type { MemoryScope, RowPage } from "./memory-search";

/** Memories the account told, or of one of these journals. */
function toldByOrIn(
  eb: ExpressionBuilder<Database, "memories">,
  userId: string,
  journalIds: readonly string[],
) {
  return journalIds.length === 0
    ? eb("user_id", "=", userId)
    : eb.or([eb("user_id", "=", userId), eb("journal_id", "in", [...journalIds])]);
}

/** At most this many unclaimed recordings are listed for one browser. */
export const UNCLAIMED_LIMIT = 50;

/** One memory row by id, on `ex` (inside a transaction, always the transaction's). */
function rowById(ex: Executor, id: string): Promise<MemoryRow | undefined> {
  return ex.selectFrom("memories").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

/**
 * The only code that reads or writes the memories table (with its per-database search, which
 * also owns SQLite's full-text index). Holds no state: a set of queries over the database.
 */
export class MemoriesRepo {
  private readonly index: MemorySearch;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {
    this.index = kind === "sqlite" ? new SqliteMemorySearch() : new PostgresMemorySearch();
  }

  async insert(input: NewMemory, ex: Executor = this.db): Promise<MemoryRow> {
    return inTransaction(ex, async (trx) => {
      const row = await trx
        .insertInto("memories")
        .values(toValues(input))
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      await this.index.reindex(trx, undefined, searchable(row));
      return row;
    });
  }

  /** Inserts many memories in one transaction (imports, seeding benchmarks). */
  async insertMany(inputs: readonly NewMemory[], chunkSize = 500): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < inputs.length; i += chunkSize) {
        const rows = await trx
          .insertInto("memories")
          .values(inputs.slice(i, i + chunkSize).map(toValues))
          .returning(SEARCHED)
          .execute();
        for (const row of rows) await this.index.reindex(trx, undefined, row);
      }
    });
  }

  async findById(id: string, ex: Executor = this.db): Promise<MemoryRow | undefined> {
    return rowById(ex, id);
  }

  /** How many of the scope's memories each month holds, newest month first (memory-paging.ts). */
  months(scope: MemoryScope): Promise<MonthCount[]> {
    return monthsOf(this.db, scope);
  }

  /** The years that hold the scope's memories, newest first, with counts and their first page. */
  async years(scope: MemoryScope): Promise<YearCount[]> {
    return yearsOf(await this.months(scope));
  }

  /** How many memories the scope covers. */
  async countOf(scope: MemoryScope): Promise<number> {
    return totalOf(await this.months(scope));
  }

  /** A user's memories, newest recorded first, one page of PAGE_SIZE with the total (ADR 0036). */
  async list(scope: MemoryScope, page: number): Promise<RowPage> {
    return pageOf(this.db, scope, await this.months(scope), page);
  }

  /** Full-text search (memory-search.ts); empty token lists match nothing. */
  search(scope: MemoryScope, tokens: readonly string[], page: number): Promise<RowPage> {
    return this.index.search(this.db, scope, tokens, page);
  }

  /** Indexes every memory for search afresh; returns how many (SQLite; PostgreSQL needs none). */
  rebuildSearchIndex(): Promise<number> {
    return this.index.rebuild(this.db);
  }

  /**
   * Applies an owner's edit unless the memory is processing (the pipeline owns its fields until it
   * ends: ADR 0011). Returns the updated row, or 'processing', or undefined when it is gone.
   */
  async update(id: string, edit: MemoryEdit): Promise<MemoryRow | "processing" | undefined> {
    return inTransaction(this.db, async (trx) => {
      const before = await rowById(trx, id);
      if (!before) return undefined;
      // A changed transcript is the owner's from now on: never replaced by a new transcription;
      // the sentences left as they were keep their times (ADR 0041).
      const changed = edit.transcript !== before.transcript;
      const segments = changed
        ? keepUnchangedSegments(segmentsOf(before), edit.transcript)
        : segmentsOf(before);
      const after = await trx
        .updateTable("memories")
        .set({
          title: edit.title,
          transcript: edit.transcript,
          summary: edit.summary,
          recorded_at: edit.recordedAt,
          tags: JSON.stringify(edit.tags),
          ...(edit.removeQuestion ? { question: null } : {}),
          ...(changed
            ? {
                transcript_edited: 1,
                transcript_segments: segmentsJson(segments),
              }
            : {}),
          updated_at: nowIso(),
        })
        .where("id", "=", id)
        .where("status", "<>", "processing")
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!after) return "processing";
      await this.index.reindex(trx, searchable(before), searchable(after));
      return after;
    });
  }

  /**
   * Locks the memory row for the rest of the transaction (PostgreSQL; SQLite has one writer) so a
   * comment cannot be added while the memory is being deleted. Undefined when it is gone.
   */
  async findForDelete(id: string, trx: Executor): Promise<MemoryRow | undefined> {
    const query = trx.selectFrom("memories").select(COLUMNS).where("id", "=", id);
    return (this.kind === "postgres" ? query.forUpdate() : query).executeTakeFirst();
  }

  /** Deletes the row; false when another request deleted it first (only one delete wins). */
  async delete(id: string, trx: Executor): Promise<boolean> {
    const deleted = await trx
      .deleteFrom("memories")
      .where("id", "=", id)
      .returning(SEARCHED)
      .executeTakeFirst();
    if (deleted) await this.index.reindex(trx, deleted, undefined);
    return deleted !== undefined;
  }

  /**
   * Every memory of a user with its audio id, each row locked for the rest of the transaction
   * (PostgreSQL), so no comment can be added to them meanwhile: part of deleting an account.
   */
  async lockAllOfUser(
    userId: string,
    journalIds: readonly string[],
    trx: Executor,
  ): Promise<Array<{ id: string; audio_id: string | null }>> {
    const query = trx
      .selectFrom("memories")
      .select(["id", "audio_id"])
      .where((eb) => toldByOrIn(eb, userId, journalIds));
    return (this.kind === "postgres" ? query.forUpdate() : query).execute();
  }

  /** Deletes every memory a user told, and every memory of `journalIds`; returns how many. */
  async deleteAllOfUser(
    userId: string,
    journalIds: readonly string[],
    trx: Executor,
  ): Promise<number> {
    const deleted = await trx
      .deleteFrom("memories")
      .where((eb) => toldByOrIn(eb, userId, journalIds))
      .returning(SEARCHED)
      .execute();
    for (const row of deleted) await this.index.reindex(trx, row, undefined);
    return deleted.length;
  }

  /** One batch of a journal's memories in a stable order, for streaming a backup (keyset paging). */
  async batchForBackup(journalId: string, afterSeq: number, limit: number): Promise<MemoryRow[]> {
    return this.db
      .selectFrom("memories")
      .select(COLUMNS)
      .where("journal_id", "=", journalId)
      .where("seq", ">", afterSeq)
      .orderBy("seq", "asc")
      .limit(limit)
      .execute();
  }

  /**
   * One batch of all a journal's memories newest first by recorded date, before the (recordedAt, seq)
   * key: keyset paging for the backup's index.html.
   */
  async batchNewestFirst(
    journalId: string,
    before: { recordedAt: string; seq: number } | null,
    limit: number,
  ): Promise<MemoryRow[]> {
    let query = this.db.selectFrom("memories").select(COLUMNS).where("journal_id", "=", journalId);
    if (before) {
      query = query.where((eb) =>
        eb.or([
          eb("recorded_at", "<", before.recordedAt),
          eb.and([eb("recorded_at", "=", before.recordedAt), eb("seq", "<", before.seq)]),
        ]),
      );
    }
    return query.orderBy("recorded_at", "desc").orderBy("seq", "desc").limit(limit).execute();
  }

  /**
   * One batch of a journal's saved memories in recorded order (oldest first), recorded in
   * [from, to), after the (recordedAt, seq) key: keyset paging for the memory book.
   */
  async batchForBook(
    journalId: string,
    range: { from: string | null; to: string | null },
    after: { recordedAt: string; seq: number } | null,
    limit: number,
  ): Promise<MemoryRow[]> {
    let query = this.db
      .selectFrom("memories")
      .select(COLUMNS)
      .where("journal_id", "=", journalId)
      .where("status", "=", "saved");
    if (range.from) query = query.where("recorded_at", ">=", range.from);
    if (range.to) query = query.where("recorded_at", "<", range.to);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb("recorded_at", ">", after.recordedAt),
          eb.and([eb("recorded_at", "=", after.recordedAt), eb("seq", ">", after.seq)]),
        ]),
      );
    }
    return query.orderBy("recorded_at", "asc").orderBy("seq", "asc").limit(limit).execute();
  }

  /** A journal's memories made after `after`, oldest first: what relatives' news reads (ADR 0044). */
  madeAfter(journalId: string, after: string, limit: number) {
    return this.db
      .selectFrom("memories")
      .select(["id", "title", "status", "created_at", "storyteller_id"])
      .where("journal_id", "=", journalId)
      .where("created_at", ">", after)
      .orderBy("created_at")
      .orderBy("seq")
      .limit(limit)
      .execute();
  }

  /** Every memory a member told, its id and title (their replies' mail and "new replies" marks). */
  toldBy(storytellerId: string) {
    return this.db
      .selectFrom("memories")
      .select(["id", "title", "journal_id", "storyteller_id"])
      .where("storyteller_id", "=", storytellerId)
      .execute();
  }

  // ---- Processing (the AI pipeline, retries and claiming) ----------------------------------

  // The pipeline's writes apply only while the memory is processing: a memory deleted, or one whose
  // processing ended meanwhile, is never written by a late stage.

  /** Records the stage now running (the browser shows it as progress). */
  async setStage(id: string, stage: PipelineStage): Promise<boolean> {
    return this.updateProcessing(id, { stage, error: null });
  }

  /** Stores what a stage produced, so a retry resumes after it. */
  async saveStageOutput(id: string, output: StageOutput): Promise<boolean> {
    const changes = stageOutputValues(output);
    return inTransaction(this.db, async (trx) => {
      const before = await rowById(trx, id);
      let update = trx
        .updateTable("memories")
        .set(changes)
        .where("id", "=", id)
        .where("status", "=", "processing");
      // A transcript the owner edited is never replaced by a transcription (ADR 0041).
      if (output.transcript !== undefined) update = update.where("transcript_edited", "=", 0);
      const after = await update.returning(SEARCHED).executeTakeFirst();
      if (before && after) await this.index.reindex(trx, searchable(before), after);
      return after !== undefined;
    });
  }

  /** The pipeline finished: the memory is saved. */
  async markSaved(id: string, ex: Executor = this.db): Promise<boolean> {
    return this.updateProcessing(id, { status: "saved", stage: null, error: null }, ex);
  }

  /** The pipeline stopped at `stage` with a message the user sees; the audio stays. */
  async markFailed(id: string, stage: PipelineStage, code: ProcessingErrorCode): Promise<boolean> {
    return this.updateProcessing(id, { status: "failed", stage, error: code });
  }

  private async updateProcessing(
    id: string,
    changes: Updateable<MemoriesTable>,
    ex: Executor = this.db,
  ): Promise<boolean> {
    const result = await ex
      .updateTable("memories")
      .set({ ...changes, updated_at: nowIso() })
      .where("id", "=", id)
      .where("status", "=", "processing")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Puts a failed memory back to processing at its failed stage; false when it was not failed. */
  async resumeFailed(id: string, trx: Executor): Promise<boolean> {
    const result = await trx
      .updateTable("memories")
      .set({ status: "processing", error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where("status", "=", "failed")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Puts a saved or failed memory back to processing at the summarize stage, so the pipeline makes
   * the summary, title, scores and tags again from its (corrected) transcript. One conditional
   * UPDATE: false when it is processing already, or gone.
   */
  async startRegenerate(id: string, trx: Executor): Promise<boolean> {
    const result = await trx
      .updateTable("memories")
      .set({ status: "processing", stage: "summarize", error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where("status", "in", ["saved", "failed"])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * A journal's memories that may be transcribed again (`retranscribableWhere` in memory-row.ts
   * says which), none processing. Oldest first.
   */
  async listRetranscribable(journalId: string, unknownToo: boolean): Promise<string[]> {
    const rows = await this.db
      .selectFrom("memories")
      .select("id")
      .where("journal_id", "=", journalId)
      .where((eb) => retranscribableWhere(eb, unknownToo))
      .orderBy("seq")
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Puts a memory that may be transcribed again back to processing at the transcribe stage, so it
   * is transcribed again (beside the owner's edit, when they edited it). One conditional UPDATE:
   * false when it is processing already, may not be, or is gone.
   */
  async startRetranscribe(id: string, unknownToo: boolean, trx: Executor): Promise<boolean> {
    const result = await trx
      .updateTable("memories")
      .set({ status: "processing", stage: "transcribe", error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where((eb) => retranscribableWhere(eb, unknownToo))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Keeps a new transcription beside the owner's edit while the memory is processing (ADR 0045). */
  async saveProposal(id: string, proposal: TranscriptProposal): Promise<boolean> {
    const result = await this.db
      .updateTable("memories")
      .set({
        proposed_transcript: proposal.transcript,
        proposed_segments: segmentsJson(proposal.segments),
        proposed_engine: proposal.engine,
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .where("status", "=", "processing")
      .where("transcript_edited", "=", 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The owner takes the offered transcription: it becomes the transcript with its times and
   * engine, no longer an edit. 'processing' while the pipeline owns the memory, 'none' without an
   * offer, undefined when it is gone.
   */
  async acceptProposal(id: string): Promise<MemoryRow | "processing" | "none" | undefined> {
    return inTransaction(this.db, async (trx) => {
      const before = await rowById(trx, id);
      if (!before) return undefined;
      if (before.status === "processing") return "processing";
      const after = await trx
        .updateTable("memories")
        .set((eb) => ({
          transcript: eb.fn.coalesce("proposed_transcript", "transcript"),
          transcript_segments: eb.ref("proposed_segments"),
          transcript_engine: eb.ref("proposed_engine"),
          transcript_edited: 0,
          proposed_transcript: null,
          proposed_segments: null,
          proposed_engine: null,
          updated_at: nowIso(),
        }))
        .where("id", "=", id)
        .where("status", "<>", "processing")
        .where("proposed_transcript", "is not", null)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!after) return "none";
      await this.index.reindex(trx, searchable(before), searchable(after));
      return after;
    });
  }

  /** The owner keeps their transcript: the offer goes, its engine stays so it is not made again. */
  async dismissProposal(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable("memories")
      .set({ proposed_transcript: null, proposed_segments: null, updated_at: nowIso() })
      .where("id", "=", id)
      .where("proposed_transcript", "is not", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Gives an anonymous memory to `userId` when `visitorHash` recorded it and the claim window is
   * open. One conditional UPDATE: of two concurrent claims only one can match `user_id is null`.
   */
  async claim(
    id: string,
    owner: { userId: string; journalId: string; storytellerId: string },
    visitorHash: string,
    now: Date,
    trx: Executor,
  ): Promise<boolean> {
    // Unclaimed, it was not indexed; claimed, it is searchable in its journal.
    const claimed = await trx
      .updateTable("memories")
      .set({
        user_id: owner.userId,
        journal_id: owner.journalId,
        storyteller_id: owner.storytellerId,
        claim_expires_at: null,
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .where("user_id", "is", null)
      .where("anon_owner_hash", "=", visitorHash)
      .where("claim_expires_at", ">", now.toISOString())
      .returning(SEARCHED)
      .executeTakeFirst();
    if (claimed) await this.index.reindex(trx, undefined, claimed);
    return claimed !== undefined;
  }

  /**
   * The anonymous memories `visitorHash` recorded that can still be claimed at `now` (not claimed,
   * window open), newest first, at most UNCLAIMED_LIMIT (the daily cap keeps the real number small).
   */
  async listUnclaimed(visitorHash: string, now: Date): Promise<MemoryRow[]> {
    return this.db
      .selectFrom("memories")
      .select(COLUMNS)
      .where("anon_owner_hash", "=", visitorHash)
      .where("user_id", "is", null)
      .where("claim_expires_at", ">", now.toISOString())
      .orderBy("created_at", "desc")
      .orderBy("seq", "desc")
      .limit(UNCLAIMED_LIMIT)
      .execute();
  }

  /** How many memories this anonymous browser started since `since` (the daily cap). */
  async countAnonymousSince(visitorHash: string, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom("memories")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("anon_owner_hash", "=", visitorHash)
      .where("created_at", ">=", since.toISOString())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
