import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * How many memories each user has (all, and saved ones), kept by triggers in the same statement
 * as every insert, delete, claim (user_id set) and status change of a memory, so a list page
 * reads one row for its total instead of counting the whole journal (ADR 0025). Triggers rather
 * than code: claims, restores, account deletion and the pipeline all change memories, and none of
 * them can forget the count. Anonymous memories (no user yet) are not counted until claimed.
 *
 * PostgreSQL also gets a (user_id, seq) index: bounded search takes a user's newest matches by
 * seq. SQLite's full-text index is rebuilt so that one user's search does not read everyone's
 * matches (ADR 0025):
 * - an `owner` column holds the hex of the memory's user id as a single token, so a search is
 *   `owner AND words` inside the index, which skips other users' rows by seeking;
 * - prefix indexes for prefixes of one to eight letters: without one, FTS5 answers `garden*` by
 *   merging the whole lists of every word it starts, all users' rows, before the first match;
 *   with one it reads a single list lazily, newest first, and stops at the page budget. The
 *   index is about twice the size and twice as slow to write (ADR 0025);
 * - contentless with deletes, since nothing reads text back from it.
 */
export const countsAndSearchIndex: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    await db.schema
      .createTable("memory_counts")
      .addColumn("user_id", "text", (c) =>
        c.primaryKey().references("users.id").onDelete("cascade"),
      )
      .addColumn("total", "integer", (c) => c.notNull().defaultTo(0).check(sql`total >= 0`))
      .addColumn("saved", "integer", (c) =>
        c.notNull().defaultTo(0).check(sql`saved >= 0 and saved <= total`),
      )
      .execute();

    if (kind === "sqlite") {
      for (const trigger of ["memories_fts_insert", "memories_fts_delete", "memories_fts_update"]) {
        await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      }
      await sql`drop table memories_fts`.execute(db);
      await sql`create virtual table memories_fts using fts5(
        title, transcript, summary, tags, owner,
        content='', contentless_delete=1, prefix='1 2 3 4 5 6 7 8',
        tokenize='unicode61 remove_diacritics 2'
      )`.execute(db);
      await sql`insert into memories_fts (rowid, title, transcript, summary, tags, owner)
        select seq, title, transcript, summary, tags, hex(coalesce(user_id, '')) from memories`.execute(
        db,
      );
      await sql`create trigger memories_fts_insert after insert on memories begin
        insert into memories_fts (rowid, title, transcript, summary, tags, owner)
        values (new.seq, new.title, new.transcript, new.summary, new.tags, hex(coalesce(new.user_id, '')));
      end`.execute(db);
      await sql`create trigger memories_fts_delete after delete on memories begin
        delete from memories_fts where rowid = old.seq;
      end`.execute(db);
      await sql`create trigger memories_fts_update
        after update of title, transcript, summary, tags, user_id on memories begin
        delete from memories_fts where rowid = old.seq;
        insert into memories_fts (rowid, title, transcript, summary, tags, owner)
        values (new.seq, new.title, new.transcript, new.summary, new.tags, hex(coalesce(new.user_id, '')));
      end`.execute(db);

      await sql`create trigger memory_counts_insert after insert on memories
        when new.user_id is not null begin
          insert into memory_counts (user_id, total, saved) values (new.user_id, 1, new.status = 'saved')
          on conflict (user_id) do update set total = total + 1, saved = saved + excluded.saved;
        end`.execute(db);
      await sql`create trigger memory_counts_delete after delete on memories
        when old.user_id is not null begin
          update memory_counts set total = total - 1, saved = saved - (old.status = 'saved')
          where user_id = old.user_id;
        end`.execute(db);
      await sql`create trigger memory_counts_update after update of user_id, status on memories
        when old.user_id is not new.user_id or old.status is not new.status begin
          update memory_counts set total = total - 1, saved = saved - (old.status = 'saved')
          where user_id = old.user_id;
          insert into memory_counts (user_id, total, saved)
          select new.user_id, 1, new.status = 'saved' where new.user_id is not null
          on conflict (user_id) do update set total = total + 1, saved = saved + excluded.saved;
        end`.execute(db);
    } else {
      await sql`create function memory_counts_apply() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') and old.user_id is not null then
            update memory_counts
              set total = total - 1, saved = saved - (old.status = 'saved')::int
              where user_id = old.user_id;
          end if;
          if tg_op in ('INSERT', 'UPDATE') and new.user_id is not null then
            insert into memory_counts (user_id, total, saved)
              values (new.user_id, 1, (new.status = 'saved')::int)
              on conflict (user_id) do update
              set total = memory_counts.total + 1, saved = memory_counts.saved + excluded.saved;
          end if;
          return null;
        end
      $$`.execute(db);
      await sql`create trigger memory_counts_insert_delete after insert or delete on memories
        for each row execute function memory_counts_apply()`.execute(db);
      await sql`create trigger memory_counts_update after update of user_id, status on memories
        for each row
        when (old.user_id is distinct from new.user_id or old.status is distinct from new.status)
        execute function memory_counts_apply()`.execute(db);
      await sql`create index memories_user_seq on memories (user_id, seq)`.execute(db);
    }

    // Journals that exist already start with their true counts.
    const isSaved = kind === "sqlite" ? sql`status = 'saved'` : sql`(status = 'saved')::int`;
    await sql`insert into memory_counts (user_id, total, saved)
      select user_id, count(*), sum(${isSaved}) from memories
      where user_id is not null group by user_id`.execute(db);
  },
};
