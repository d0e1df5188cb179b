import { type CompiledQuery, createQueryId, type Kysely, type Selectable } from "kysely";
import type { Database, SessionsTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type SessionRow = Selectable<SessionsTable>;

/** The only code that touches the sessions table; ids are stored as hashes of the cookie token. */
export class SessionsRepo {
  /**
   * The lookup every API request makes, built and compiled once: only its parameter changes, and
   * building it through the query builder cost more than the query itself on SQLite.
   */
  private readonly findQuery: CompiledQuery<SessionRow>;

  constructor(private readonly db: Kysely<Database>) {
    this.findQuery = db.selectFrom("sessions").selectAll().where("id_hash", "=", "").compile();
  }

  async create(row: SessionRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto("sessions").values(row).execute();
  }

  async find(idHash: string): Promise<SessionRow | undefined> {
    const { rows } = await this.db.executeQuery<SessionRow>({
      ...this.findQuery,
      queryId: createQueryId(),
      parameters: [idHash],
    });
    return rows[0];
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
