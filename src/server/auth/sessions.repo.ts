import type { Kysely, Selectable } from "kysely";
import type { Database, SessionsTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type SessionRow = Selectable<SessionsTable>;

/** The only code that touches the sessions table; ids are stored as hashes of the cookie token. */
export class SessionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(row: SessionRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto("sessions").values(row).execute();
  }

  async find(idHash: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom("sessions")
      .selectAll()
      .where("id_hash", "=", idHash)
      .executeTakeFirst();
  }

  async touch(idHash: string, lastSeenAt: string): Promise<void> {
    await this.db
      .updateTable("sessions")
      .set({ last_seen_at: lastSeenAt })
      .where("id_hash", "=", idHash)
      .execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
  }

  async deleteAllForUser(userId: string, ex: Executor = this.db): Promise<void> {
    await ex.deleteFrom("sessions").where("user_id", "=", userId).execute();
  }

  /**
   * Housekeeping: deletes sessions past their absolute expiry at `now`, or last seen at or before
   * `idleSince` (both would be refused anyway); returns how many.
   */
  async deleteExpired(now: Date, idleSince: Date): Promise<number> {
    const result = await this.db
      .deleteFrom("sessions")
      .where((eb) =>
        eb.or([
          eb("expires_at", "<=", now.toISOString()),
          eb("last_seen_at", "<=", idleSince.toISOString()),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
