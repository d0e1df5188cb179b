import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import { PAGE_SIZE } from "../../shared/constants";
import { normalizeScores } from "../../shared/rules";
import {
  MEMORY_STATUSES,
  type Memory,
  type MemoryStatus,
  PIPELINE_STAGES,
  type PipelineStage,
} from "../../shared/schemas";
import type { DatabaseKind } from "../db/connection";
import type { CommentsTable, Database, MemoriesTable } from "../db/schema";
import { newId, nowIso } from "../ids";

export type MemoryRow = Selectable<MemoriesTable>;
export type CommentRow = Selectable<CommentsTable>;

/** What a new memory row needs; everything else has a sensible default. */
export interface NewMemory {
  id?: string;
  userId: string | null;
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
}

/** The fields an owner may change through PUT /api/memories/{id}. */
export interface MemoryEdit {
  title: string;
  transcript: string;
  summary: string;
  recordedAt: string;
  tags: string[];
}

export interface RowPage {
  rows: MemoryRow[];
  total: number;
}

/** Which memories a list or search covers. */
export interface MemoryScope {
  userId: string;
  /** Only saved memories (what others see on a public profile). */
  savedOnly: boolean;
}

/** At most this many query words are used; more only slows the query without changing much. */
export const MAX_SEARCH_TOKENS = 16;

/**
 * Splits user input into plain word tokens (letters and digits only, lower case), so that the
 * database never sees FTS5 or tsquery syntax: quotes, parentheses, operators and emoji vanish.
 */
export function searchTokens(query: string): string[] {
  const tokens =
    query
      .normalize("NFC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(tokens)].slice(0, MAX_SEARCH_TOKENS);
}

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

/** The API shape of a memory row (spec section 3 field names); shared with the pipeline. */
export function toMemoryDto(row: MemoryRow): Memory {
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
  };
}

function toValues(input: NewMemory) {
  const now = nowIso();
  return {
    id: input.id ?? newId(),
    user_id: input.userId,
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
    created_at: now,
    updated_at: now,
  };
}

/** The only code that reads or writes the memories table. */
export class MemoriesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {}

  async insert(input: NewMemory): Promise<MemoryRow> {
    const values = toValues(input);
    await this.db.insertInto("memories").values(values).execute();
    const row = await this.findById(values.id);
    if (!row) throw new Error("Inserted memory vanished");
    return row;
  }

  /** Inserts many memories in one transaction (imports, seeding benchmarks). */
  async insertMany(inputs: readonly NewMemory[], chunkSize = 500): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < inputs.length; i += chunkSize) {
        await trx
          .insertInto("memories")
          .values(inputs.slice(i, i + chunkSize).map(toValues))
          .execute();
      }
    });
  }

  async findById(id: string): Promise<MemoryRow | undefined> {
    return this.db
      .selectFrom("memories")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst()
      .then(stripSearchVector);
  }

  /** A user's memories, newest recorded first, one page of PAGE_SIZE with the total. */
  async list(scope: MemoryScope, page: number): Promise<RowPage> {
    let base = this.db.selectFrom("memories").where("user_id", "=", scope.userId);
    if (scope.savedOnly) base = base.where("status", "=", "saved");
    // The page's keys come from the index alone (a deferred join), then only 15 rows are read.
    const pageKeys = base
      .select("seq")
      .orderBy("recorded_at", "desc")
      .orderBy("seq", "desc")
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE);
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom("memories")
        .selectAll()
        .where("seq", "in", pageKeys)
        .orderBy("recorded_at", "desc")
        .orderBy("seq", "desc")
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((row) => stripSearchVector(row) as MemoryRow), total: Number(count.n) };
  }

  /**
   * Full-text search over title, transcript, summary and tags, ranked by relevance (title and
   * tags weigh most), every token matched as a prefix. Empty token lists match nothing.
   */
  async search(scope: MemoryScope, tokens: readonly string[], page: number): Promise<RowPage> {
    if (tokens.length === 0) return { rows: [], total: 0 };
    const offset = (page - 1) * PAGE_SIZE;
    const saved = scope.savedOnly ? sql`and m.status = 'saved'` : sql``;
    if (this.kind === "sqlite") {
      // Each token is quoted (a quote inside is impossible: tokens are letters and digits).
      const match = tokens.map((token) => `"${token}"*`).join(" ");
      const [rows, count] = await Promise.all([
        sql<MemoryRow>`select m.* from memories_fts f join memories m on m.seq = f.rowid
          where memories_fts match ${match} and m.user_id = ${scope.userId} ${saved}
          order by bm25(memories_fts, 10.0, 1.0, 3.0, 10.0), m.recorded_at desc, m.seq desc
          limit ${PAGE_SIZE} offset ${offset}`.execute(this.db),
        sql<{
          n: number;
        }>`select count(*) as n from memories_fts f join memories m on m.seq = f.rowid
          where memories_fts match ${match} and m.user_id = ${scope.userId} ${saved}`.execute(
          this.db,
        ),
      ]);
      return { rows: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
    }
    const tsquery = tokens.map((token) => `${token}:*`).join(" & ");
    const [rows, count] = await Promise.all([
      sql<MemoryRow>`select m.* from memories m, to_tsquery('simple', ${tsquery}) q
        where m.search_vector @@ q and m.user_id = ${scope.userId} ${saved}
        order by ts_rank(m.search_vector, q) desc, m.recorded_at desc, m.seq desc
        limit ${PAGE_SIZE} offset ${offset}`.execute(this.db),
      sql<{ n: number }>`select count(*) as n from memories m
        where m.search_vector @@ to_tsquery('simple', ${tsquery}) and m.user_id = ${scope.userId} ${saved}`.execute(
        this.db,
      ),
    ]);
    return {
      rows: rows.rows.map((row) => stripSearchVector(row) as MemoryRow),
      total: Number(count.rows[0]?.n ?? 0),
    };
  }

  /** Applies an owner's edit; returns the updated row. */
  async update(id: string, edit: MemoryEdit): Promise<MemoryRow | undefined> {
    await this.db
      .updateTable("memories")
      .set({
        title: edit.title,
        transcript: edit.transcript,
        summary: edit.summary,
        recorded_at: edit.recordedAt,
        tags: JSON.stringify(edit.tags),
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .execute();
    return this.findById(id);
  }

  /**
   * Deletes a memory, its comments and the audio_files rows of both in one transaction and returns
   * the storage keys of that audio, to be removed from storage only after the commit: a crash in
   * between leaves orphan files at worst, never a memory pointing at missing audio.
   */
  async deleteWithComments(id: string): Promise<{ deleted: boolean; storageKeys: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const memory = await trx
        .selectFrom("memories")
        .select(["id", "audio_id"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!memory) return { deleted: false, storageKeys: [] };
      const comments = await trx
        .selectFrom("comments")
        .select("audio_id")
        .where("memory_id", "=", id)
        .execute();
      const audioIds = [memory.audio_id, ...comments.map((comment) => comment.audio_id)].filter(
        (audioId): audioId is string => audioId !== null,
      );
      await trx.deleteFrom("comments").where("memory_id", "=", id).execute();
      await trx.deleteFrom("memories").where("id", "=", id).execute();
      if (audioIds.length === 0) return { deleted: true, storageKeys: [] };
      const files = await trx
        .selectFrom("audio_files")
        .select("storage_key")
        .where("id", "in", audioIds)
        .execute();
      await trx.deleteFrom("audio_files").where("id", "in", audioIds).execute();
      return { deleted: true, storageKeys: files.map((file) => file.storage_key) };
    });
  }

  /** One batch of a user's memories in a stable order, for streaming a backup (keyset paging). */
  async batchForBackup(userId: string, afterSeq: number, limit: number): Promise<MemoryRow[]> {
    const rows = await this.db
      .selectFrom("memories")
      .selectAll()
      .where("user_id", "=", userId)
      .where("seq", ">", afterSeq)
      .orderBy("seq", "asc")
      .limit(limit)
      .execute();
    return rows.map((row) => stripSearchVector(row) as MemoryRow);
  }

  /** The comments of some memories, oldest first, for the backup. */
  async commentsFor(memoryIds: readonly string[]): Promise<CommentRow[]> {
    if (memoryIds.length === 0) return [];
    return this.db
      .selectFrom("comments")
      .selectAll()
      .where("memory_id", "in", memoryIds)
      .orderBy("created_at", "asc")
      .orderBy("id", "asc")
      .execute();
  }

  /** Audio file metadata by id, for the backup. */
  async audioFiles(
    audioIds: readonly string[],
  ): Promise<{ id: string; storage_key: string; content_type: string; bytes: number }[]> {
    if (audioIds.length === 0) return [];
    return this.db
      .selectFrom("audio_files")
      .select(["id", "storage_key", "content_type", "bytes"])
      .where("id", "in", audioIds)
      .execute();
  }

  // ---- Processing (the AI pipeline, retries and claiming) ----------------------------------

  /**
   * Creates a memory in state 'processing' and, in the same transaction, whatever `alsoInTransaction`
   * does with it (queue its job): either both are committed or neither. When the audio already
   * belongs to a memory, nothing is created and that memory is returned (`created: false`).
   */
  async createProcessing(
    input: {
      userId: string | null;
      anonOwnerHash: string | null;
      claimExpiresAt: string | null;
      audioId: string;
      recordedAt: string;
      duration: number;
    },
    alsoInTransaction: (trx: Transaction<Database>, memoryId: string) => Promise<void>,
  ): Promise<{ row: MemoryRow; created: boolean }> {
    const id = newId();
    const existing = await this.db.transaction().execute(async (trx) => {
      const used = await trx
        .selectFrom("memories")
        .select("id")
        .where("audio_id", "=", input.audioId)
        .executeTakeFirst();
      if (used) return used.id;
      const now = nowIso();
      await trx
        .insertInto("memories")
        .values({
          id,
          user_id: input.userId,
          anon_owner_hash: input.anonOwnerHash,
          claim_expires_at: input.claimExpiresAt,
          audio_id: input.audioId,
          title: "",
          transcript: "",
          summary: "",
          scores: "{}",
          duration: input.duration,
          recorded_at: input.recordedAt,
          tags: "[]",
          status: "processing",
          stage: "transcribe",
          error: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await alsoInTransaction(trx, id);
      return null;
    });
    const row = await this.findById(existing ?? id);
    if (!row) throw new Error("The memory vanished while it was created");
    return { row, created: existing === null };
  }

  /** Records the stage now running (the browser shows it as progress). */
  async setStage(id: string, stage: PipelineStage): Promise<void> {
    await this.db
      .updateTable("memories")
      .set({ stage, status: "processing", error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
  }

  /** Stores what a stage produced, so a retry resumes after it. */
  async saveStageOutput(
    id: string,
    output: {
      transcript?: string;
      duration?: number;
      summary?: string;
      title?: string;
      scores?: Record<string, number>;
      tags?: string[];
    },
  ): Promise<void> {
    await this.db
      .updateTable("memories")
      .set({
        ...(output.transcript !== undefined ? { transcript: output.transcript } : {}),
        ...(output.duration !== undefined ? { duration: output.duration } : {}),
        ...(output.summary !== undefined ? { summary: output.summary } : {}),
        ...(output.title !== undefined ? { title: output.title } : {}),
        ...(output.scores !== undefined ? { scores: JSON.stringify(output.scores) } : {}),
        ...(output.tags !== undefined ? { tags: JSON.stringify(output.tags) } : {}),
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .execute();
  }

  /** The pipeline finished: the memory is saved. */
  async markSaved(id: string): Promise<void> {
    await this.db
      .updateTable("memories")
      .set({ status: "saved", stage: null, error: null, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
  }

  /** The pipeline stopped at `stage` with a message the user sees; the audio stays. */
  async markFailed(id: string, stage: PipelineStage, message: string): Promise<void> {
    await this.db
      .updateTable("memories")
      .set({ status: "failed", stage, error: message, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
  }

  /**
   * Puts a failed memory back to processing at its failed stage and, in the same transaction, runs
   * `alsoInTransaction` (queue the job). False when it was not failed (a second retry loses).
   */
  async resumeFailed(
    id: string,
    alsoInTransaction: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("memories")
        .set({ status: "processing", error: null, updated_at: nowIso() })
        .where("id", "=", id)
        .where("status", "=", "failed")
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await alsoInTransaction(trx);
      return true;
    });
  }

  /**
   * Gives an anonymous memory to `userId` when `visitorHash` recorded it and the claim window is
   * open. One conditional UPDATE: of two concurrent claims only one can match `user_id is null`.
   * The audio file changes owner in the same transaction.
   */
  async claim(
    id: string,
    userId: string,
    visitorHash: string,
    now: Date,
  ): Promise<MemoryRow | null> {
    const claimed = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("memories")
        .set({ user_id: userId, claim_expires_at: null, updated_at: nowIso() })
        .where("id", "=", id)
        .where("user_id", "is", null)
        .where("anon_owner_hash", "=", visitorHash)
        .where("claim_expires_at", ">", now.toISOString())
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      const row = await trx
        .selectFrom("memories")
        .select("audio_id")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      if (row.audio_id) {
        await trx
          .updateTable("audio_files")
          .set({ owner_user_id: userId })
          .where("id", "=", row.audio_id)
          .execute();
      }
      return true;
    });
    return claimed ? ((await this.findById(id)) ?? null) : null;
  }

  /** True when a memory already uses this audio (one recording makes one memory). */
  async isAudioUsed(audioId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("memories")
      .select("id")
      .where("audio_id", "=", audioId)
      .executeTakeFirst();
    return row !== undefined;
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

/** PostgreSQL rows carry the generated search_vector column; it never leaves the repo. */
function stripSearchVector<T>(row: T): T {
  if (row && typeof row === "object" && "search_vector" in row) {
    const { search_vector: _ignored, ...rest } = row as Record<string, unknown>;
    return rest as T;
  }
  return row;
}
