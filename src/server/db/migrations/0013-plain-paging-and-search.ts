import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";
import { INDEXED_COLUMNS, indexedText, type SearchableFields } from "../search-words";

/** How many memories the full-text backfill reads at a time. */
const BATCH = 1000;

/**
 * Plain paging and search (ADR 0036):
 * - Per-month counts (`memory_months`: user, 'YYYY-MM', all, saved) replace the per-user counts,
 *   list revisions, change log and stored page anchors of 0008, 0009, 0011 and 0012. A page is an
 *   OFFSET inside the month that holds it; the months also give the year navigator its years.
 *   Kept by plain SQL triggers, so every writer (the app, a restore, the `sqlite3` shell) keeps them.
 * - SQLite's full-text index gets one column per field, so bm25() weighs title and tags above the
 *   summary and the transcript. Its words are written by the app (owner-prefixed, search-words.ts),
 *   not by triggers calling a function only the app registers; contentless without
 *   `contentless_delete` (SQLite 3.43), so SQLite 3.40 (Debian 12's shell) can write the database.
 */
export const plainPagingAndSearch: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    if (kind === "sqlite") {
      for (const trigger of [
        "memories_fts_insert",
        "memories_fts_delete",
        "memories_fts_update",
        "memory_counts_insert",
        "memory_counts_delete",
        "memory_counts_update",
      ]) {
        await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
      }
    } else {
      await sql`drop trigger if exists memory_counts_insert_delete on memories`.execute(db);
      await sql`drop trigger if exists memory_counts_update on memories`.execute(db);
      await sql`drop function if exists memory_counts_apply()`.execute(db);
    }
    // A database created before 0009 to 0012 were emptied has these; a new one has none of them.
    await db.schema.dropTable("memory_page_anchors").ifExists().execute();
    await db.schema.dropTable("memory_list_changes").ifExists().execute();
    await db.schema.dropTable("memory_counts").ifExists().execute();

    await db.schema
      .createTable("memory_months")
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("month", "text", (c) => c.notNull())
      .addColumn("total", "integer", (c) => c.notNull().check(sql`total >= 0`))
      .addColumn("saved", "integer", (c) => c.notNull().check(sql`saved >= 0 and saved <= total`))
      .addPrimaryKeyConstraint("memory_months_pk", ["user_id", "month"])
      .execute();

    if (kind === "sqlite") {
      const add = (row: "new") => sql`
        insert into memory_months (user_id, month, total, saved)
        select ${sql.raw(row)}.user_id, substr(${sql.raw(row)}.recorded_at, 1, 7), 1,
          ${sql.raw(row)}.status = 'saved'
        where ${sql.raw(row)}.user_id is not null
        on conflict (user_id, month) do update
        set total = total + 1, saved = saved + excluded.saved;`;
      const remove = sql`
        update memory_months set total = total - 1, saved = saved - (old.status = 'saved')
        where user_id = old.user_id and month = substr(old.recorded_at, 1, 7);`;
      await sql`create trigger memory_months_insert after insert on memories begin
        ${add("new")}
      end`.execute(db);
      await sql`create trigger memory_months_delete after delete on memories begin
        ${remove}
      end`.execute(db);
      await sql`create trigger memory_months_update after update of user_id, status, recorded_at
        on memories
        when old.user_id is not new.user_id or old.status is not new.status
          or substr(old.recorded_at, 1, 7) is not substr(new.recorded_at, 1, 7) begin
        ${remove}
        ${add("new")}
      end`.execute(db);
    } else {
      await sql`create function memory_months_apply() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') and old.user_id is not null then
            update memory_months
              set total = total - 1, saved = saved - (old.status = 'saved')::int
              where user_id = old.user_id and month = substr(old.recorded_at, 1, 7);
          end if;
          if tg_op in ('INSERT', 'UPDATE') and new.user_id is not null then
            insert into memory_months (user_id, month, total, saved)
              values (new.user_id, substr(new.recorded_at, 1, 7), 1, (new.status = 'saved')::int)
              on conflict (user_id, month) do update
              set total = memory_months.total + 1, saved = memory_months.saved + excluded.saved;
          end if;
          return null;
        end
      $$`.execute(db);
      await sql`create trigger memory_months_insert_delete after insert or delete on memories
        for each row execute function memory_months_apply()`.execute(db);
      await sql`create trigger memory_months_update after update of user_id, status, recorded_at
        on memories for each row
        when (old.user_id is distinct from new.user_id or old.status is distinct from new.status
          or substr(old.recorded_at, 1, 7) is distinct from substr(new.recorded_at, 1, 7))
        execute function memory_months_apply()`.execute(db);
    }
    const isSaved = kind === "sqlite" ? sql`status = 'saved'` : sql`(status = 'saved')::int`;
    await sql`insert into memory_months (user_id, month, total, saved)
      select user_id, substr(recorded_at, 1, 7), count(*), sum(${isSaved}) from memories
      where user_id is not null group by user_id, substr(recorded_at, 1, 7)`.execute(db);

    if (kind !== "sqlite") return;
    await sql`drop table if exists memories_fts`.execute(db);
    await sql`create virtual table memories_fts using fts5(
      title, tags, summary, transcript,
      content='', prefix='46 47 48 49 50 51 52 53',
      tokenize='unicode61 remove_diacritics 2'
    )`.execute(db);
    for (let after = 0; ; ) {
      const rows = (
        await sql<
          SearchableFields & { user_id: string }
        >`select seq, user_id, title, tags, summary, transcript
          from memories where user_id is not null and seq > ${after}
          order by seq limit ${BATCH}`.execute(db)
      ).rows;
      for (const row of rows) {
        const text = indexedText(row.user_id, row);
        await sql`insert into memories_fts (rowid, ${sql.raw(INDEXED_COLUMNS.join(", "))})
          values (${row.seq}, ${sql.join(INDEXED_COLUMNS.map((column) => text[column]))})`.execute(
          db,
        );
      }
      const last = rows.at(-1);
      if (!last) break;
      after = last.seq;
    }
    // Fewer, larger segments after the bulk insert: each query word then seeks in fewer places.
    await sql`insert into memories_fts (memories_fts) values ('optimize')`.execute(db);
  },
};
