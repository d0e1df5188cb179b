import { sql } from "kysely";
import { PAGE_SIZE } from "../../shared/constants";
import {
  INDEXED_COLUMNS,
  indexedText,
  ownedPrefixQuery,
  type SearchableFields,
} from "../db/search-words";
import type { Executor } from "../db/transactions";
import {
  type MemoryRow,
  type MemoryScope,
  type MemorySearch,
  type RowPage,
  SEARCH_RANK_LIMIT,
  scopeFilter,
} from "./memory-search";

/** bm25() weights of INDEXED_COLUMNS: title and tags as PostgreSQL's weight A, summary as B. */
const WEIGHTS = sql.raw("10.0, 10.0, 3.0, 1.0");

const COLUMNS = sql.raw(INDEXED_COLUMNS.join(", "));

/** How many memories a rebuild reads at a time. */
const REBUILD_BATCH = 1000;

/**
 * SQLite's FTS5 index (migration 0013): contentless, each word journal-prefixed so a family's
 * search reads only its own word lists, ranked by bm25() in SQL. Contentless tables before SQLite
 * 3.43 forget a row only through the 'delete' command given the words it was indexed with, which
 * the app recomputes from the row as it was.
 */
export class SqliteMemorySearch implements MemorySearch {
  async search(
    db: Executor,
    scope: MemoryScope,
    tokens: readonly string[],
    page: number,
  ): Promise<RowPage> {
    if (tokens.length === 0) return { rows: [], total: 0 };
    const saved = scopeFilter(scope);
    const match = ownedPrefixQuery(scope.journalId, tokens);
    // The journal's newest matches (FTS5 yields them by rowid, newest first, and stops at the limit)
    // are ranked; the join re-checks the journal and applies the saved-only filter.
    const result = await sql<MemoryRow & { matches: number }>`with candidates as materialized (
        select m.seq, m.recorded_at, bm25(memories_fts, ${WEIGHTS}) as score
        from memories_fts join memories m on m.seq = memories_fts.rowid
        where memories_fts match ${match} and m.journal_id = ${scope.journalId} ${saved}
        order by memories_fts.rowid desc limit ${SEARCH_RANK_LIMIT}
      ), page as (
        select seq, score, recorded_at, count(*) over () as matches from candidates
        order by score, recorded_at desc, seq desc limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}
      )
      select m.*, page.matches from page join memories m on m.seq = page.seq
      order by page.score, page.recorded_at desc, page.seq desc`.execute(db);
    const first = result.rows[0];
    if (first) {
      return {
        rows: result.rows.map(({ matches: _matches, ...row }) => row),
        total: Number(first.matches),
      };
    }
    // Past the last page: the count alone.
    const counted = await sql<{ n: number }>`select count(*) as n from (
        select 1 from memories_fts join memories m on m.seq = memories_fts.rowid
        where memories_fts match ${match} and m.journal_id = ${scope.journalId} ${saved}
        limit ${SEARCH_RANK_LIMIT}
      ) b`.execute(db);
    return { rows: [], total: Number(counted.rows[0]?.n ?? 0) };
  }

  async reindex(ex: Executor, before?: SearchableFields, after?: SearchableFields): Promise<void> {
    const old = before?.journal_id ? indexedText(before.journal_id, before) : undefined;
    const now = after?.journal_id ? indexedText(after.journal_id, after) : undefined;
    if (
      old &&
      now &&
      before?.seq === after?.seq &&
      INDEXED_COLUMNS.every((c) => old[c] === now[c])
    ) {
      return;
    }
    if (old && before) {
      await sql`insert into memories_fts (memories_fts, rowid, ${COLUMNS})
        values ('delete', ${before.seq}, ${sql.join(INDEXED_COLUMNS.map((c) => old[c]))})`.execute(
        ex,
      );
    }
    if (now && after) {
      await sql`insert into memories_fts (rowid, ${COLUMNS})
        values (${after.seq}, ${sql.join(INDEXED_COLUMNS.map((c) => now[c]))})`.execute(ex);
    }
  }

  async rebuild(db: Executor): Promise<number> {
    return db.transaction().execute(async (trx) => {
      await sql`insert into memories_fts (memories_fts) values ('delete-all')`.execute(trx);
      let indexed = 0;
      for (let after = 0; ; ) {
        const rows = await trx
          .selectFrom("memories")
          .select(["seq", "journal_id", "title", "tags", "summary", "transcript"])
          .where("journal_id", "is not", null)
          .where("seq", ">", after)
          .orderBy("seq")
          .limit(REBUILD_BATCH)
          .execute();
        for (const row of rows) await this.reindex(trx, undefined, row);
        indexed += rows.length;
        const last = rows.at(-1);
        if (!last) break;
        after = last.seq;
      }
      await sql`insert into memories_fts (memories_fts) values ('optimize')`.execute(trx);
      return indexed;
    });
  }
}
