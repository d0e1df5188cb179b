import type SqliteDatabase from "better-sqlite3";

/** How many query texts' verdicts are kept (the app sends a few hundred distinct texts). */
const VERDICT_CACHE_SIZE = 256;

// One row of EXPLAIN QUERY PLAN: a search of one table through its rowid, or through an index
// with an equality on each of the listed columns (`(id_hash=?)`, `(a=? AND b=?)`).
const ROWID_SEARCH = /^SEARCH \S+ USING INTEGER PRIMARY KEY \(rowid=\?\)$/;
const INDEX_SEARCH = /^SEARCH \S+ USING (?:COVERING )?INDEX (\S+) \(([^()]+)\)$/;
const EQUALITY = /^"?([^"=<>]+)"?=\?$/;

/**
 * Whether SQLite plans `sql` as one lookup of at most one row by a unique key given in full as
 * its parameters: a single plan step that searches one table by its rowid, or by a unique,
 * non-partial index with an equality on every one of the index's columns, and no parameter
 * besides those. Such a read costs one B-tree descent whatever the table's size (the session
 * lookup, a user's count row), so it is cheaper to run on the event loop than to send to a worker
 * thread (ADR 0033). Anything else (a scan, a range, an `in` list, a join, a subquery, a sort, a
 * parameter used elsewhere) is not one.
 */
export function isUniqueKeyLookup(
  sqlite: SqliteDatabase.Database,
  sql: string,
  parameters: readonly unknown[],
): boolean {
  const plan = sqlite.prepare(`explain query plan ${sql}`).all(parameters) as { detail: string }[];
  const detail = plan.length === 1 ? plan[0]?.detail : undefined;
  if (!detail) return false;
  if (ROWID_SEARCH.test(detail)) return parameters.length === 1;
  const search = INDEX_SEARCH.exec(detail);
  if (!search?.[1] || !search[2]) return false;
  const columns = search[2].split(" AND ").map((term) => EQUALITY.exec(term)?.[1]);
  // An `in (?, ?)` list plans like `=?` but binds more parameters than there are equalities.
  if (columns.some((column) => column === undefined) || columns.length !== parameters.length) {
    return false;
  }
  const index = search[1];
  const unique = sqlite
    .prepare(
      `select 1 from sqlite_schema s, pragma_index_list(s.tbl_name) i
       where s.type = 'index' and s.name = ? and i.name = s.name and i."unique" and not i.partial`,
    )
    .get(index);
  if (!unique) return false;
  const indexColumns = (
    sqlite.prepare("select name from pragma_index_info(?) order by seqno").all(index) as {
      name: string | null;
    }[]
  ).map((row) => row.name);
  return (
    indexColumns.length === columns.length &&
    indexColumns.every((column) => column !== null && columns.includes(column))
  );
}

/**
 * Remembers `isUniqueKeyLookup`'s verdict per query text (the plan of a text does not depend on
 * its parameter values), least recently used dropped first.
 */
export class UniqueKeyLookups {
  private readonly verdicts = new Map<string, boolean>();

  constructor(
    private readonly sqlite: SqliteDatabase.Database,
    private readonly size = VERDICT_CACHE_SIZE,
  ) {}

  test(sql: string, parameters: readonly unknown[]): boolean {
    const known = this.verdicts.get(sql);
    if (known !== undefined) {
      this.verdicts.delete(sql);
      this.verdicts.set(sql, known);
      return known;
    }
    const verdict = isUniqueKeyLookup(this.sqlite, sql, parameters);
    this.verdicts.set(sql, verdict);
    if (this.verdicts.size > this.size) {
      const oldest = this.verdicts.keys().next().value;
      if (oldest !== undefined) this.verdicts.delete(oldest);
    }
    return verdict;
  }
}
