import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * SQLite's full-text index, rebuilt so that one family's search never reads another family's
 * entries (issue 18, ADR 0029). Since 0008 a search was `owner AND garden*` inside one index
 * whose word lists hold every family's rows: a common word cost 11 times as much beside 10,000
 * families as alone. Now each word is indexed with its owner in front (`<hex of user id>x<word>`,
 * made by the memory_search_words function the server registers on its connection), so a user's
 * words have lists of their own and a search reads only them.
 *
 * - One column of distinct words: ranking reads the rows themselves (ADR 0025), not the index.
 * - Prefix indexes for one to eight letters after the owner part of a generated user id (22
 *   characters, so 44 hex digits and the separator: 45), so `<owner>xgarden*` reads one list
 *   lazily, newest first, as 0008's did. Owners of other lengths are still found, by merging.
 * - Memories without an owner index nothing until claimed (the update trigger then adds them).
 * - Triggers, as in 0008: every writer (claims, restore, the pipeline, cascading deletes) keeps
 *   the index without knowing of it.
 * PostgreSQL is unchanged: its index already lives on the row and search filters by user.
 */
export const searchIndexPerOwner: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    if (kind !== "sqlite") return;
    for (const trigger of ["memories_fts_insert", "memories_fts_delete", "memories_fts_update"]) {
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table memories_fts`.execute(db);
    await sql`create virtual table memories_fts using fts5(
      words,
      content='', contentless_delete=1, prefix='46 47 48 49 50 51 52 53',
      tokenize='unicode61 remove_diacritics 2'
    )`.execute(db);
    await sql`insert into memories_fts (rowid, words)
      select seq, memory_search_words(user_id, title, transcript, summary, tags) from memories
      where user_id is not null`.execute(db);
    await sql`create trigger memories_fts_insert after insert on memories
      when new.user_id is not null begin
        insert into memories_fts (rowid, words)
        values (new.seq, memory_search_words(new.user_id, new.title, new.transcript, new.summary, new.tags));
      end`.execute(db);
    await sql`create trigger memories_fts_delete after delete on memories
      when old.user_id is not null begin
        delete from memories_fts where rowid = old.seq;
      end`.execute(db);
    await sql`create trigger memories_fts_update
      after update of title, transcript, summary, tags, user_id on memories begin
        delete from memories_fts where rowid = old.seq and old.user_id is not null;
        insert into memories_fts (rowid, words)
        select new.seq, memory_search_words(new.user_id, new.title, new.transcript, new.summary, new.tags)
        where new.user_id is not null;
      end`.execute(db);
    // Fewer, larger segments after the bulk insert: each query word then seeks in fewer places.
    await sql`insert into memories_fts (memories_fts) values ('optimize')`.execute(db);
  },
};
