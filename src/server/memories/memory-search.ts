import { sql } from "kysely";
import { type SearchableFields, wordsOf } from "../db/search-words";
import type { Executor } from "../db/transactions";
import type { MemoryRow } from "./memory-row";

export type { MemoryRow } from "./memory-row";

export interface RowPage {
  rows: MemoryRow[];
  total: number;
}

/** Which memories a list or search covers. */
export interface MemoryScope {
  journalId: string;
  /** Only the memories this member told. */
  storytellerId?: string;
  /** Only saved memories (what others see on a public profile). */
  savedOnly: boolean;
}

/** The scope's conditions on `m`, after its journal's: saved only, one storyteller. */
export function scopeFilter(scope: MemoryScope) {
  return sql`${scope.savedOnly ? sql`and m.status = 'saved'` : sql``} ${
    scope.storytellerId ? sql`and m.storyteller_id = ${scope.storytellerId}` : sql``
  }`;
}

/**
 * A search ranks (and counts) at most this many matches: the most recently added ones. Enough
 * for 66 pages; a query matching more is not a search anyone pages through (ADR 0036).
 */
export const SEARCH_RANK_LIMIT = 1000;

/** At most this many query words are used; more only slows the query without changing much. */
export const MAX_SEARCH_TOKENS = 16;

/**
 * Splits user input into plain word tokens (letters and digits only, lower case), so that the
 * database never sees FTS5 or tsquery syntax: quotes, parentheses, operators and emoji vanish.
 */
export function searchTokens(query: string): string[] {
  // The same split as the words SQLite indexes (search-words.ts), so a query word meets its row's.
  return wordsOf(query).slice(0, MAX_SEARCH_TOKENS);
}

/**
 * Full-text search of memories, one implementation per database (memory-search.sqlite.ts,
 * memory-search.postgres.ts); the memories repository is its only user.
 */
export interface MemorySearch {
  /**
   * One page of the scope's memories matching every token as a word prefix, best first (title and
   * tags weigh most), newest recorded first among equals, with the bounded match count.
   */
  search(
    db: Executor,
    scope: MemoryScope,
    tokens: readonly string[],
    page: number,
  ): Promise<RowPage>;
  /**
   * Keeps the index in step with one memory's change: `before` as it was indexed (undefined for a
   * new memory), `after` as it is now (undefined once deleted). Runs in the writer's transaction.
   */
  reindex(ex: Executor, before?: SearchableFields, after?: SearchableFields): Promise<void>;
  /** Indexes every memory afresh (after a tool other than the app wrote memories); how many. */
  rebuild(db: Executor): Promise<number>;
}
