import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { nowIso } from "../ids";

export interface RotationRow {
  seed: number;
  position: number;
}

/** Each user's place in the built-in questions; the only code touching `question_rotation`. */
export class QuestionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's rotation, made with `seed` at position 0 when there is none yet. */
  async getOrCreate(userId: string, seed: number): Promise<RotationRow> {
    await this.db
      .insertInto("question_rotation")
      .values({ user_id: userId, seed, position: 0, updated_at: nowIso() })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("question_rotation")
      .select(["seed", "position"])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return { seed: Number(row.seed), position: Number(row.position) };
  }

  /** Moves on from `position` (only if the user is still there, so a double click skips once). */
  async advanceFrom(userId: string, position: number): Promise<void> {
    await this.db
      .updateTable("question_rotation")
      .set({ position: position + 1, updated_at: nowIso() })
      .where("user_id", "=", userId)
      .where("position", "=", position)
      .execute();
  }
}
