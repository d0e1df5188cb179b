import { type Kysely, sql } from "kysely";
import { PAGE_SIZE } from "../../shared/constants";
import type { Database } from "../db/schema";
import type { MemoryScope } from "../memories/memories.repo";

/**
 * What list page N means, for tests of the repository's paging (ADR 0025, 0027): the ids of a
 * plain OFFSET over the whole scope, newest recorded first.
 */
export async function offsetPageIds(
  db: Kysely<Database>,
  scope: MemoryScope,
  page: number,
): Promise<string[]> {
  const saved = scope.savedOnly ? sql`and status = 'saved'` : sql``;
  const result = await sql<{ id: string }>`select id from memories
    where user_id = ${scope.userId} ${saved} order by recorded_at desc, seq desc
    limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}`.execute(db);
  return result.rows.map((row) => row.id);
}
