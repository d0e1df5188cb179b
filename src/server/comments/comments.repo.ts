import type { Kysely, Selectable, Transaction } from "kysely";
import type { Comment } from "../../shared/schemas";
import type { CommentsTable, Database } from "../db/schema";
import { newId, nowIso } from "../ids";

export type CommentRow = Selectable<CommentsTable>;

/** The only code that reads or writes the comments table. */
export class CommentsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `work` in one transaction (a comment and its transcription job commit together). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** A new spoken comment whose audio is already stored; its transcript comes later. */
  async create(
    input: {
      memoryId: string;
      commenterName: string;
      audioId: string | null;
    },
    executor: Kysely<Database> = this.db,
  ): Promise<CommentRow> {
    const row: CommentRow = {
      id: newId(),
      memory_id: input.memoryId,
      commenter_name: input.commenterName,
      audio_id: input.audioId,
      transcript: "",
      status: "processing",
      error: null,
      created_at: nowIso(),
    };
    await executor.insertInto("comments").values(row).execute();
    return row;
  }

  async findById(id: string): Promise<CommentRow | undefined> {
    return this.db.selectFrom("comments").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** A memory's comments, newest first. */
  async listForMemory(memoryId: string): Promise<CommentRow[]> {
    return this.db
      .selectFrom("comments")
      .selectAll()
      .where("memory_id", "=", memoryId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
  }

  async countForMemory(memoryId: string): Promise<number> {
    const row = await this.db
      .selectFrom("comments")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("memory_id", "=", memoryId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async setTranscript(id: string, transcript: string): Promise<void> {
    await this.db
      .updateTable("comments")
      .set({ transcript, status: "saved", error: null })
      .where("id", "=", id)
      .execute();
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.db
      .updateTable("comments")
      .set({ status: "failed", error })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes the row and returns its audio id so the caller can remove the file afterwards. */
  async delete(id: string): Promise<{ audioId: string | null } | undefined> {
    const row = await this.db
      .deleteFrom("comments")
      .where("id", "=", id)
      .returning(["audio_id"])
      .executeTakeFirst();
    return row ? { audioId: row.audio_id } : undefined;
  }
}

/** The shared Comment shape for a row. */
export function toCommentDto(row: CommentRow): Comment {
  return {
    id: row.id,
    memoryId: row.memory_id,
    commenterName: row.commenter_name,
    audioUrl: row.audio_id ? `/api/audio/${row.audio_id}` : "",
    transcript: row.transcript,
    createdAt: row.created_at,
    status: row.status as Comment["status"],
    error: row.error,
  };
}
