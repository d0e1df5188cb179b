import type { Kysely, Selectable } from "kysely";
import type { ProcessingErrorCode } from "../../shared/messages";
import type { Comment } from "../../shared/schemas";
import type { TranscriptSegment } from "../../shared/transcript";
import type { CommentsTable, Database } from "../db/schema";
import type { Executor } from "../db/transactions";
import { newId, nowIso } from "../ids";
import { segmentsJson } from "../memories/memory-row";

export type CommentRow = Selectable<CommentsTable>;

/** The only code that reads or writes the comments table. */
export class CommentsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new spoken comment whose audio is already stored; its transcript comes later. */
  async create(
    input: {
      id?: string;
      memoryId: string;
      commenterName: string;
      audioId: string | null;
      /** The member who replied, when a member did. */
      memberId?: string | null;
    },
    ex: Executor = this.db,
  ): Promise<CommentRow> {
    const row: CommentRow = {
      id: input.id ?? newId(),
      memory_id: input.memoryId,
      commenter_name: input.commenterName,
      audio_id: input.audioId,
      transcript: "",
      status: "processing",
      error: null,
      created_at: nowIso(),
      transcript_engine: null,
      transcript_segments: null,
      member_id: input.memberId ?? null,
    };
    await ex.insertInto("comments").values(row).execute();
    return row;
  }

  async findById(id: string): Promise<CommentRow | undefined> {
    return this.db.selectFrom("comments").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Inserts a complete row (a restored comment, transcript and all). */
  async insertRow(row: CommentRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto("comments").values(row).execute();
  }

  /** The memory a comment belongs to, or null when the comment does not exist. */
  async memoryIdOf(id: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("comments")
      .select("memory_id")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.memory_id ?? null;
  }

  /** The comments of some memories, oldest first (the backup). */
  async listForMemories(memoryIds: readonly string[]): Promise<CommentRow[]> {
    if (memoryIds.length === 0) return [];
    return this.db
      .selectFrom("comments")
      .selectAll()
      .where("memory_id", "in", memoryIds)
      .orderBy("created_at", "asc")
      .orderBy("id", "asc")
      .execute();
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

  /** The transcription job's result, with the engine that made it and its timed segments. */
  async setTranscript(
    id: string,
    transcript: string,
    made: { engine?: string | null; segments?: readonly TranscriptSegment[] } = {},
  ): Promise<void> {
    await this.db
      .updateTable("comments")
      .set({
        transcript,
        status: "saved",
        error: null,
        transcript_engine: made.engine ?? null,
        transcript_segments: segmentsJson(made.segments),
      })
      .where("id", "=", id)
      .execute();
  }

  async markFailed(id: string, error: ProcessingErrorCode): Promise<void> {
    await this.db
      .updateTable("comments")
      .set({ status: "failed", error })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes the row and returns its audio id so the caller can remove the file afterwards. */
  async delete(
    id: string,
    ex: Executor = this.db,
  ): Promise<{ audioId: string | null } | undefined> {
    const row = await ex
      .deleteFrom("comments")
      .where("id", "=", id)
      .returning(["audio_id"])
      .executeTakeFirst();
    return row ? { audioId: row.audio_id } : undefined;
  }

  /** Deletes every comment of these memories; returns the audio ids they used. */
  async deleteForMemories(memoryIds: readonly string[], ex: Executor): Promise<string[]> {
    const audioIds: string[] = [];
    for (let i = 0; i < memoryIds.length; i += ID_CHUNK) {
      const rows = await ex
        .deleteFrom("comments")
        .where("memory_id", "in", memoryIds.slice(i, i + ID_CHUNK))
        .returning("audio_id")
        .execute();
      for (const row of rows) if (row.audio_id !== null) audioIds.push(row.audio_id);
    }
    return audioIds;
  }
}

/** A reply its storyteller has not heard: the memory it answers, who made it and when. */
export interface NewReply {
  id: string;
  memoryId: string;
  commenterName: string;
  createdAt: string;
}

/**
 * Replies to a storyteller's stories (ADR 0063): what is new to them and when they last heard a
 * story's replies. The reply_views table belongs with the comments it is about.
 */
export class RepliesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The replies to these memories made after their storyteller last opened them (and after
   * `after`, when given), oldest first; replies by `storytellerId` themselves are not news to them.
   */
  async newReplies(
    memoryIds: readonly string[],
    storytellerId: string,
    after?: string | null,
  ): Promise<NewReply[]> {
    const out: NewReply[] = [];
    for (let i = 0; i < memoryIds.length; i += ID_CHUNK) {
      let query = this.db
        .selectFrom("comments")
        .leftJoin("reply_views", "reply_views.memory_id", "comments.memory_id")
        .select([
          "comments.id",
          "comments.memory_id",
          "comments.commenter_name",
          "comments.created_at",
        ])
        .where("comments.memory_id", "in", memoryIds.slice(i, i + ID_CHUNK))
        .where((eb) =>
          eb.or([
            eb("comments.member_id", "is", null),
            eb("comments.member_id", "!=", storytellerId),
          ]),
        )
        .where((eb) =>
          eb.or([
            eb("reply_views.seen_at", "is", null),
            eb("comments.created_at", ">", eb.ref("reply_views.seen_at")),
          ]),
        );
      if (after) query = query.where("comments.created_at", ">", after);
      for (const row of await query.execute()) {
        out.push({
          id: row.id,
          memoryId: row.memory_id,
          commenterName: row.commenter_name,
          createdAt: row.created_at,
        });
      }
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** The storyteller opened a memory's replies at `at`: those made until then are heard. */
  async markSeen(memoryId: string, at: string): Promise<void> {
    await this.db
      .insertInto("reply_views")
      .values({ memory_id: memoryId, seen_at: at })
      .onConflict((oc) => oc.column("memory_id").doUpdateSet({ seen_at: at }))
      .execute();
  }
}

/** Ids per `in (...)` list: well under SQLite's and PostgreSQL's limits on bound parameters. */
const ID_CHUNK = 500;
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
