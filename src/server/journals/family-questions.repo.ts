import type { Kysely, Selectable } from "kysely";
import type { Database, FamilyQuestionsTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type FamilyQuestionRow = Selectable<FamilyQuestionsTable>;

/** The only code that reads or writes the family_questions table (ADR 0061). */
export class FamilyQuestionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new question, placed after the storyteller's others. */
  async insert(row: Omit<FamilyQuestionRow, "position">): Promise<FamilyQuestionRow> {
    const last = await this.db
      .selectFrom("family_questions")
      .select((eb) => eb.fn.max("position").as("position"))
      .where("member_id", "=", row.member_id)
      .executeTakeFirst();
    const placed = { ...row, position: last?.position == null ? 0 : Number(last.position) + 1 };
    await this.db.insertInto("family_questions").values(placed).execute();
    return placed;
  }

  /** Numbers the storyteller's questions in this order (their ids), in one transaction. */
  async setOrder(memberId: string, ids: readonly string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [position, id] of ids.entries()) {
        await trx
          .updateTable("family_questions")
          .set({ position })
          .where("id", "=", id)
          .where("member_id", "=", memberId)
          .execute();
      }
    });
  }

  /**
   * A storyteller's questions: the waiting ones first, in the organizers' order, then the
   * answered ones.
   */
  async forMember(memberId: string): Promise<FamilyQuestionRow[]> {
    const rows = await this.db
      .selectFrom("family_questions")
      .selectAll()
      .where("member_id", "=", memberId)
      .orderBy("position")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return [...rows.filter((r) => !r.answered_at), ...rows.filter((r) => r.answered_at)];
  }

  /** The first question still waiting for the storyteller's answer, in the organizers' order. */
  nextFor(memberId: string): Promise<FamilyQuestionRow | undefined> {
    return this.db
      .selectFrom("family_questions")
      .selectAll()
      .where("member_id", "=", memberId)
      .where("answered_at", "is", null)
      .orderBy("position")
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
  }

  findById(id: string): Promise<FamilyQuestionRow | undefined> {
    return this.db
      .selectFrom("family_questions")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** The family questions these memories answered, by memory id (the relatives' news names them). */
  async answeredBy(memoryIds: readonly string[]): Promise<FamilyQuestionRow[]> {
    if (memoryIds.length === 0) return [];
    return this.db
      .selectFrom("family_questions")
      .selectAll()
      .where("memory_id", "in", [...new Set(memoryIds)])
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("family_questions")
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Marks the oldest waiting question of `memberId` with exactly `text` as answered by the memory,
   * in the transaction that saves it; the question, or undefined when none waited.
   */
  async answer(
    memberId: string,
    text: string,
    memoryId: string,
    at: string,
    ex: Executor,
  ): Promise<FamilyQuestionRow | undefined> {
    const waiting = await ex
      .selectFrom("family_questions")
      .selectAll()
      .where("member_id", "=", memberId)
      .where("text", "=", text)
      .where("answered_at", "is", null)
      .orderBy("position")
      .orderBy("created_at")
      .limit(1)
      .executeTakeFirst();
    if (!waiting) return undefined;
    const updated = await ex
      .updateTable("family_questions")
      .set({ memory_id: memoryId, answered_at: at })
      .where("id", "=", waiting.id)
      .where("answered_at", "is", null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1
      ? { ...waiting, memory_id: memoryId, answered_at: at }
      : undefined;
  }
}
