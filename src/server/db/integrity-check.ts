import { sql } from "kysely";
import type { DatabaseHandle } from "./connection";

/**
 * What the database finds wrong with itself: SQLite's integrity and foreign-key checks (a file
 * copied mid-write, or edited by hand, fails them). PostgreSQL enforces its constraints as it
 * writes; its storage is checked with its own `pg_amcheck`, so only a connection is asked for.
 */
export async function databaseProblems(database: DatabaseHandle): Promise<string[]> {
  if (database.kind === "postgres") {
    await database.ping();
    return [];
  }
  const problems: string[] = [];
  const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(
    database.db,
  );
  for (const row of integrity.rows) {
    if (row.integrity_check !== "ok") problems.push(row.integrity_check);
  }
  const foreignKeys = await sql<{ table: string; rowid: number; parent: string }>`
    pragma foreign_key_check`.execute(database.db);
  for (const row of foreignKeys.rows) {
    problems.push(`${row.table} row ${row.rowid} names a missing ${row.parent} row`);
  }
  return problems;
}
