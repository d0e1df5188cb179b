import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/** How many of a user's latest list changes are kept; anchors further behind are walked anew. */
export const LIST_CHANGES_KEPT = 1000;

/**
 * What each revision of a user's list (migration 0009) changed: the key `(recorded_at, seq)` of
 * the memory that came into or went out of the list, whether it was saved, and +1 or -1. The same
 * triggers that keep the counts and raise the revision write it, in the same statement, so every
 * writer (claims, restore, the pipeline, edits, cascading deletes) is covered without knowing of
 * it. A process's cached page anchors (ADR 0027) are then moved on to the latest revision by
 * shifting their positions past each change instead of being walked anew after every change.
 *
 * A change of user_id, status or recorded_at is an out (-1, old key) and an in (+1, new key),
 * each its own revision, as the counts already treat it. Only the last LIST_CHANGES_KEPT per user
 * are kept: each change deletes the one revision that falls off, by equality, since revisions rise
 * by one per logged change (a range `<=` would step over every dead row of a long transaction on
 * PostgreSQL: seeding 100,000 memories in one took seven times as long). The rows go with their
 * memory_counts row.
 */
export const listChanges: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    await db.schema
      .createTable("memory_list_changes")
      .addColumn("user_id", "text", (c) =>
        c.notNull().references("memory_counts.user_id").onDelete("cascade"),
      )
      .addColumn("revision", "integer", (c) => c.notNull())
      .addColumn("recorded_at", "text", (c) => c.notNull())
      .addColumn("seq", kind === "sqlite" ? "integer" : "bigint", (c) => c.notNull())
      .addColumn("saved", "integer", (c) => c.notNull().check(sql`saved in (0, 1)`))
      .addColumn("delta", "integer", (c) => c.notNull().check(sql`delta in (-1, 1)`))
      .addPrimaryKeyConstraint("memory_list_changes_pk", ["user_id", "revision"])
      .execute();

    if (kind === "sqlite") {
      const logged = (row: "new" | "old", delta: 1 | -1) => sql`
        insert into memory_list_changes (user_id, revision, recorded_at, seq, saved, delta)
          select user_id, revision, ${sql.raw(row)}.recorded_at, ${sql.raw(row)}.seq,
            ${sql.raw(row)}.status = 'saved', ${sql.raw(String(delta))}
          from memory_counts where user_id = ${sql.raw(row)}.user_id;
        delete from memory_list_changes where user_id = ${sql.raw(row)}.user_id
          and revision = (select revision from memory_counts
            where user_id = ${sql.raw(row)}.user_id) - ${sql.raw(String(LIST_CHANGES_KEPT))};`;
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
          ${logged("new", 1)}
        end`.execute(db);
      await sql`create trigger memory_counts_delete after delete on memories
        when old.user_id is not null begin
          update memory_counts
          set total = total - 1, saved = saved - (old.status = 'saved'), revision = revision + 1
          where user_id = old.user_id;
          ${logged("old", -1)}
        end`.execute(db);
      await sql`create trigger memory_counts_update after update of user_id, status, recorded_at
        on memories
        when old.user_id is not new.user_id or old.status is not new.status
          or old.recorded_at is not new.recorded_at begin
          update memory_counts
          set total = total - 1, saved = saved - (old.status = 'saved'), revision = revision + 1
          where user_id = old.user_id;
          ${logged("old", -1)}
          insert into memory_counts (user_id, total, saved, revision)
          select new.user_id, 1, new.status = 'saved', 1 where new.user_id is not null
          on conflict (user_id) do update
          set total = total + 1, saved = saved + excluded.saved, revision = revision + 1;
          ${logged("new", 1)}
        end`.execute(db);
    } else {
      // The triggers of 0008 and 0009 call this function; replacing it is enough.
      await sql`create or replace function memory_counts_apply() returns trigger language plpgsql as $$
        declare
          changed integer;
        begin
          if tg_op in ('DELETE', 'UPDATE') and old.user_id is not null then
            update memory_counts
              set total = total - 1, saved = saved - (old.status = 'saved')::int,
                revision = revision + 1
              where user_id = old.user_id
              returning revision into changed;
            if found then
              insert into memory_list_changes (user_id, revision, recorded_at, seq, saved, delta)
                values (old.user_id, changed, old.recorded_at, old.seq,
                  (old.status = 'saved')::int, -1);
              delete from memory_list_changes
                where user_id = old.user_id and revision = changed - ${sql.raw(String(LIST_CHANGES_KEPT))};
            end if;
          end if;
          if tg_op in ('INSERT', 'UPDATE') and new.user_id is not null then
            insert into memory_counts (user_id, total, saved, revision)
              values (new.user_id, 1, (new.status = 'saved')::int, 1)
              on conflict (user_id) do update
              set total = memory_counts.total + 1, saved = memory_counts.saved + excluded.saved,
                revision = memory_counts.revision + 1
              returning revision into changed;
            insert into memory_list_changes (user_id, revision, recorded_at, seq, saved, delta)
              values (new.user_id, changed, new.recorded_at, new.seq,
                (new.status = 'saved')::int, 1);
            delete from memory_list_changes
              where user_id = new.user_id and revision = changed - ${sql.raw(String(LIST_CHANGES_KEPT))};
          end if;
          return null;
        end
      $$`.execute(db);
    }
  },
};
