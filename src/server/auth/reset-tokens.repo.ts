import type { Kysely, Selectable } from "kysely";
import type { Database, PasswordResetTokensTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type ResetTokenRow = Selectable<PasswordResetTokensTable>;

/** The only code that touches password_reset_tokens; tokens are stored as hashes. */
export class ResetTokensRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new token for its user and deletes every older one (a new request invalidates them). */
  async replaceForUser(row: ResetTokenRow, trx: Executor = this.db): Promise<void> {
    await trx.deleteFrom("password_reset_tokens").where("user_id", "=", row.user_id).execute();
    await trx.insertInto("password_reset_tokens").values(row).execute();
  }

  /**
   * Deletes the token and returns it in one statement, so two concurrent uses cannot both
   * succeed. Call it inside the transaction that also changes the password.
   */
  async take(tokenHash: string, trx: Executor = this.db): Promise<ResetTokenRow | undefined> {
    return trx
      .deleteFrom("password_reset_tokens")
      .where("token_hash", "=", tokenHash)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes every token of a user (the password changed, or the account goes). */
  async deleteForUser(userId: string, trx: Executor = this.db): Promise<void> {
    await trx.deleteFrom("password_reset_tokens").where("user_id", "=", userId).execute();
  }

  async countForUser(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom("password_reset_tokens")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Housekeeping: deletes tokens expired at `now` (used ones are already gone: `take` deletes
   * them); returns how many.
   */
  async sweepExpired(now: Date): Promise<number> {
    const result = await this.db
      .deleteFrom("password_reset_tokens")
      .where("expires_at", "<=", now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
