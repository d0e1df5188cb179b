import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * What a repository method runs its queries on: the database, or a transaction opened by
 * `Transactions.run` (a Kysely Transaction is a Kysely too).
 */
export type Executor = Kysely<Database>;

/**
 * The one way to make writes that span features atomic: a service opens the transaction here and
 * passes it to each repository method it calls; either every write commits or none does.
 */
export class Transactions {
  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * `run`, tried again (up to `attempts` times in all) when PostgreSQL aborts it as the victim of a
   * deadlock or a serialization failure: nothing of an aborted attempt was written. For work that
   * locks many rows while other requests may lock the same ones in another order.
   */
  async runRetrying<T>(work: (trx: Executor) => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(work);
      } catch (error) {
        if (attempt >= attempts || !isTransientConflict(error)) throw error;
      }
    }
  }
}

/** Runs `work` in the caller's transaction when `ex` is one, else in a transaction of its own. */
export function inTransaction<T>(ex: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return ex.isTransaction ? work(ex) : ex.transaction().execute(work);
}

/** PostgreSQL's deadlock_detected (40P01) and serialization_failure (40001). */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}
