import { type Kysely, sql } from "kysely";
import { PAGE_SIZE } from "../../shared/constants";
import type { Database } from "../db/schema";
import { COLUMNS } from "./memory-row";
import type { MemoryScope, RowPage } from "./memory-search";

// The memories repository's numbered pages and year navigator (ADR 0036), over the per-month
// counts the triggers keep (migration 0013); the repository is their only caller.

/** How many of a scope's memories were recorded in one month ('YYYY-MM'). */
export interface MonthCount {
  month: string;
  count: number;
}

/** A year's memories in a scope, and the list page holding its newest one. */
export interface YearCount {
  year: string;
  count: number;
  page: number;
}

/**
 * How many of the scope's memories each month holds, newest month first: a few hundred rows for a
 * lifetime's journal.
 */
export async function monthsOf(db: Kysely<Database>, scope: MemoryScope): Promise<MonthCount[]> {
  if (scope.storytellerId) return storytellerMonthsOf(db, scope, scope.storytellerId);
  const count = scope.savedOnly ? "saved" : "total";
  const rows = await db
    .selectFrom("memory_months")
    .select(["month", `${count} as count`])
    .where("journal_id", "=", scope.journalId)
    .where(count, ">", 0)
    .orderBy("month", "desc")
    .execute();
  return rows.map((row) => ({ month: row.month, count: Number(row.count) }));
}

/**
 * One storyteller's months, counted from the memories themselves on the (journal, storyteller,
 * recorded_at) index: at most one person's lifetime of stories, no triggers to keep.
 */
async function storytellerMonthsOf(
  db: Kysely<Database>,
  scope: MemoryScope,
  storytellerId: string,
): Promise<MonthCount[]> {
  const month = sql<string>`substr(recorded_at, 1, 7)`;
  let query = db
    .selectFrom("memories")
    .select([month.as("month"), (eb) => eb.fn.countAll<number>().as("count")])
    .where("journal_id", "=", scope.journalId)
    .where("storyteller_id", "=", storytellerId);
  if (scope.savedOnly) query = query.where("status", "=", "saved");
  const rows = await query.groupBy(month).orderBy(month, "desc").execute();
  return rows.map((row) => ({ month: row.month, count: Number(row.count) }));
}

/** How many memories the months hold. */
export function totalOf(months: readonly MonthCount[]): number {
  return months.reduce((sum, month) => sum + month.count, 0);
}

/**
 * The years that hold the months' memories, newest first, each with its count and the list page
 * holding its newest memory (the memories of later years come before it).
 */
export function yearsOf(months: readonly MonthCount[]): YearCount[] {
  const years: YearCount[] = [];
  let newer = 0;
  for (const { month, count } of months) {
    const year = month.slice(0, 4);
    const last = years.at(-1);
    if (last?.year === year) last.count += count;
    else years.push({ year, count, page: Math.floor(newer / PAGE_SIZE) + 1 });
    newer += count;
  }
  return years;
}

/**
 * One page of PAGE_SIZE of the scope's memories, newest recorded first, with the total. The month
 * counts tell which month holds the page's first memory; the page is then an OFFSET within that
 * month on the (journal_id, recorded_at, seq) index, so a deep page skips at most a month's memories,
 * not the whole journal.
 */
export async function pageOf(
  db: Kysely<Database>,
  scope: MemoryScope,
  months: readonly MonthCount[],
  page: number,
): Promise<RowPage> {
  const total = totalOf(months);
  const offset = (page - 1) * PAGE_SIZE;
  if (offset >= total) return { rows: [], total };
  let newer = 0;
  let index = 0;
  for (; index < months.length - 1; index++) {
    const count = months[index]?.count ?? 0;
    if (newer + count > offset) break;
    newer += count;
  }
  // Memories of later months start with their month's key, so they sort at or after it.
  const laterMonth = index > 0 ? months[index - 1]?.month : undefined;
  let keys = db.selectFrom("memories").select("seq").where("journal_id", "=", scope.journalId);
  if (scope.savedOnly) keys = keys.where("status", "=", "saved");
  if (scope.storytellerId) keys = keys.where("storyteller_id", "=", scope.storytellerId);
  if (laterMonth) keys = keys.where("recorded_at", "<", laterMonth);
  // The page's keys come from the index alone (a deferred join), then only 15 rows are read.
  const rows = await db
    .selectFrom("memories")
    .select(COLUMNS)
    .where(
      "seq",
      "in",
      keys
        .orderBy("recorded_at", "desc")
        .orderBy("seq", "desc")
        .limit(PAGE_SIZE)
        .offset(offset - newer),
    )
    .orderBy("recorded_at", "desc")
    .orderBy("seq", "desc")
    .execute();
  return { rows, total };
}
