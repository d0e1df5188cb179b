import { sql } from "kysely";
import { PAGE_SIZE } from "../../shared/constants";
import type { Executor } from "../db/transactions";
import {
  type MemoryRow,
  type MemoryScope,
  type MemorySearch,
  type RowPage,
  SEARCH_RANK_LIMIT,
  scopeFilter,
} from "./memory-search";

/** How many of a user's newest memories are tried to tell a common query from a selective one. */
const BROAD_QUERY_SAMPLE = 200;

/**
 * PostgreSQL's full-text search: the generated, weighted search_vector column (migration 0001)
 * and its GIN index, ranked by ts_rank. The column is computed by PostgreSQL itself, so there is
 * no index for the app to keep.
 */
export class PostgresMemorySearch implements MemorySearch {
  async search(
    db: Executor,
    scope: MemoryScope,
    tokens: readonly string[],
    page: number,
  ): Promise<RowPage> {
    if (tokens.length === 0) return { rows: [], total: 0 };
    const saved = scopeFilter(scope);
    const tsquery = tokens.map((token) => `${token}:*`).join(" & ");
    const rankPage = (ex: Executor) =>
      sql<
        MemoryRow & { matches: number; search_vector?: unknown }
      >`with candidates as materialized (
          select m.seq from memories m
          where m.search_vector @@ to_tsquery('simple', ${tsquery}) and m.journal_id = ${scope.journalId} ${saved}
          order by m.seq desc limit ${SEARCH_RANK_LIMIT}
        )
        select m.*, (select count(*) from candidates) as matches
        from candidates c join memories m on m.seq = c.seq, to_tsquery('simple', ${tsquery}) q
        order by ts_rank(m.search_vector, q) desc, m.recorded_at desc, m.seq desc
        limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}`.execute(ex);
    // The GIN index finds every match before the newest can be picked: right for a selective
    // query, but a common word makes it read most of the journal. Such a query instead walks the
    // journal's memories newest first and stops at the limit, which the planner (whose estimate for
    // prefix queries is far too low) is told by turning bitmap and sequential scans off for this
    // one query, leaving the (journal_id, seq) index.
    const result = (await this.isBroad(db, scope, tsquery))
      ? await db.transaction().execute(async (trx) => {
          await sql`set local enable_bitmapscan = off`.execute(trx);
          await sql`set local enable_seqscan = off`.execute(trx);
          return rankPage(trx);
        })
      : await rankPage(db);
    const first = result.rows[0];
    if (first) {
      return {
        rows: result.rows.map(({ matches: _m, search_vector: _v, ...row }) => row),
        total: Number(first.matches),
      };
    }
    // Past the last page: the bounded count alone.
    const counted = await sql<{ n: number }>`select count(*) as n from (
        select 1 from memories m
        where m.search_vector @@ to_tsquery('simple', ${tsquery}) and m.journal_id = ${scope.journalId} ${saved}
        order by m.seq desc limit ${SEARCH_RANK_LIMIT}
      ) b`.execute(db);
    return { rows: [], total: Number(counted.rows[0]?.n ?? 0) };
  }

  /**
   * True when at least one in ten of the user's newest memories match: walking newest first then
   * finds SEARCH_RANK_LIMIT matches within ten times as many rows, fewer than the index would read
   * for a query that common.
   */
  private async isBroad(db: Executor, scope: MemoryScope, tsquery: string): Promise<boolean> {
    const saved = scopeFilter(scope);
    const result = await sql<{ hits: number }>`select count(*) as hits from (
        select m.search_vector from memories m where m.journal_id = ${scope.journalId} ${saved}
        order by m.seq desc limit ${BROAD_QUERY_SAMPLE}
      ) newest where newest.search_vector @@ to_tsquery('simple', ${tsquery})`.execute(db);
    return Number(result.rows[0]?.hits ?? 0) * 10 >= BROAD_QUERY_SAMPLE;
  }

  async reindex(): Promise<void> {}

  async rebuild(): Promise<number> {
    return 0;
  }
}
