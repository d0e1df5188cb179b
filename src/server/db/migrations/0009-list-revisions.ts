import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * A per-user revision in memory_counts, raised by the same triggers as the counts on every change
 * that can move a memory in, out of or within a user's list: an insert, a delete, a claim or
 * other change of user_id, a status change, and (new here) an edit of recorded_at. A list page
 * reads it with its total; page anchors cached in a process are used only while it is unchanged,
 * so a change made through any instance sharing the database invalidates them (ADR 0027).
 * Existing rows start at 0: no process holds anchors across a migration.
 */
export const listRevisions: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    await db.schema
      .alterTable("memory_counts")
      .addColumn("revision", "integer", (c) => c.notNull().defaultTo(0))
      .execute();

    if (kind === "sqlite") {
      for (const trigger of [
        "memory_counts_insert",
        "memory_counts_delete",
        "memory_counts_update",
      ]) {
        await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      }
      await sql`create trigger memory_counts_insert after insert on memories
        when new.user_id is not null begin
          insert into memory_counts (user_id, total, saved, revision)
          values (new.user_id, 1, new.status = 'saved', 1)
          on conflict (user_id) do update
          set total = total + 1, saved = saved + excluded.saved, revision = revision + 1;
        end`.execute(db);
      await sql`create trigger memory_counts_delete after delete on memories
        when old.user_id is not null begin
          update memory_counts
          set total = total - 1, saved = saved - (old.status = 'saved'), revision = revision + 1
          where user_id = old.user_id;
        end`.execute(db);
      // A recorded_at edit takes the memory out and puts it back: the counts net to nothing and
      // the revision rises.
      await sql`create trigger memory_counts_update after update of user_id, status, recorded_at
        on memories
        when old.user_id is not new.user_id or old.status is not new.status
          or old.recorded_at is not new.recorded_at begin
          update memory_counts
          set total = total - 1, saved = saved - (old.status = 'saved'), revision = revision + 1
          where user_id = old.user_id;
          insert into memory_counts (user_id, total, saved, revision)
          select new.user_id, 1, new.status = 'saved', 1 where new.user_id is not null
          on conflict (user_id) do update
          set total = total + 1, saved = saved + excluded.saved, revision = revision + 1;
        end`.execute(db);
    } else {
      await sql`create or replace function memory_counts_apply() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') and old.user_id is not null then
            update memory_counts
              set total = total - 1, saved = saved - (old.status = 'saved')::int,
                revision = revision + 1
              where user_id = old.user_id;
          end if;
          if tg_op in ('INSERT', 'UPDATE') and new.user_id is not null then
            insert into memory_counts (user_id, total, saved, revision)
              values (new.user_id, 1, (new.status = 'saved')::int, 1)
              on conflict (user_id) do update
              set total = memory_counts.total + 1, saved = memory_counts.saved + excluded.saved,
                revision = memory_counts.revision + 1;
          end if;
          return null;
        end
      $$`.execute(db);
      await sql`drop trigger memory_counts_update on memories`.execute(db);
      // A recorded_at edit takes the memory out and puts it back: the counts net to nothing and
      // the revision rises.
      await sql`create trigger memory_counts_update after update of user_id, status, recorded_at
        on memories for each row
        when (old.user_id is distinct from new.user_id or old.status is distinct from new.status
          or old.recorded_at is distinct from new.recorded_at)
        execute function memory_counts_apply()`.execute(db);
    }
  },
};
