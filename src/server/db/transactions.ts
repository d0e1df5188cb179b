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
}
