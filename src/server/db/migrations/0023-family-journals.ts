import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";
import { INDEXED_COLUMNS, indexedText } from "../search-words";

/** How many memories the full-text rebuild reads at a time. */
const BATCH = 1000;

/**
 * Family journals (ADR 0057). A journal has members with roles; every memory belongs to a journal
 * and names the member who told it; share links belong to a journal. Every account becomes a
 * journal of its own (id 'j' + user id) in which it is the organizer and the storyteller (member
 * id 'm' + user id), so its memories, share links and relatives' news (now queued per journal)
 * keep working.
 *
 * Lists, the year navigator and search now count and index per journal: `memory_months` is keyed
 * by journal and SQLite's full-text words are prefixed by the journal instead of the account.
 */
export const familyJournals: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    await db.schema
      .createTable("journals")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) between 1 and 200`))
      .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("journals_created_by")
      .on("journals")
      .column("created_by")
      .execute();

    await db.schema
      .createTable("journal_members")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("journal_id", "text", (c) =>
        c.notNull().references("journals.id").onDelete("cascade"),
      )
      .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) between 1 and 200`))
      .addColumn("role", "text", (c) =>
        c.notNull().check(sql`role in ('organizer', 'storyteller', 'relative')`),
      )
      .addColumn("email", "text")
      .addColumn("invite_token_hash", "text", (c) => c.unique())
      .addColumn("invite_expires_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      // A pending invitation is a member without an account who has a token and its end.
      .addCheckConstraint(
        "journal_members_invitation",
        sql`(invite_token_hash is null) = (invite_expires_at is null)`,
      )
      .addUniqueConstraint("journal_members_journal_user", ["journal_id", "user_id"])
      .execute();
    await db.schema
      .createIndex("journal_members_user")
      .on("journal_members")
      .columns(["user_id", "journal_id"])
      .execute();

    await db.schema
      .alterTable("memories")
      .addColumn("journal_id", "text", (c) => c.references("journals.id").onDelete("cascade"))
      .execute();
    await db.schema
      .alterTable("memories")
      .addColumn("storyteller_id", "text", (c) =>
        c.references("journal_members.id").onDelete("set null"),
      )
      .execute();
    await db.schema
      .alterTable("share_links")
      .addColumn("journal_id", "text", (c) => c.references("journals.id").onDelete("cascade"))
      .execute();

    const possessive = sql`coalesce(display_name, username) || '''s journal'`;
    await sql`insert into journals (id, name, created_by, created_at, updated_at)
      select 'j' || id, ${possessive}, id, created_at, created_at from users`.execute(db);
    await sql`insert into journal_members (id, journal_id, user_id, name, role, created_at)
      select 'm' || id, 'j' || id, id, coalesce(display_name, username), 'organizer', created_at
      from users`.execute(db);
    await sql`update memories set journal_id = 'j' || user_id, storyteller_id = 'm' || user_id
      where user_id is not null`.execute(db);
    await sql`update share_links set journal_id = 'j' || user_id`.execute(db);
    // Relatives' news is now one job per journal, not per account.
    await sql`update jobs set target_id = 'j' || target_id where kind = 'relative-news'`.execute(
      db,
    );

    for (const [name, columns] of [
      ["memories_journal_recorded_seq", ["journal_id", "recorded_at", "seq"]],
      ["memories_journal_status_recorded_seq", ["journal_id", "status", "recorded_at", "seq"]],
      [
        "memories_journal_storyteller_recorded_seq",
        ["journal_id", "storyteller_id", "recorded_at", "seq"],
      ],
      ["memories_journal_seq", ["journal_id", "seq"]],
      ["memories_storyteller", ["storyteller_id"]],
      ["share_links_journal", ["journal_id", "created_at"]],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on(name.startsWith("share") ? "share_links" : "memories")
        .columns([...columns])
        .execute();
    }

    await countMonthsByJournal(db, kind);
    if (kind === "sqlite") await reindexByJournal(db);
  },
};

/** `memory_months` keyed by journal, kept by triggers as before (migration 0013). */
async function countMonthsByJournal(db: Kysely<unknown>, kind: "sqlite" | "postgres") {
  if (kind === "sqlite") {
    for (const trigger of [
      "memory_months_insert",
      "memory_months_delete",
      "memory_months_update",
    ]) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  } else {
    await sql`drop trigger if exists memory_months_insert_delete on memories`.execute(db);
    await sql`drop trigger if exists memory_months_update on memories`.execute(db);
    await sql`drop function if exists memory_months_apply()`.execute(db);
  }
  await db.schema.dropTable("memory_months").execute();
  await db.schema
    .createTable("memory_months")
    .addColumn("journal_id", "text", (c) =>
      c.notNull().references("journals.id").onDelete("cascade"),
    )
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull().check(sql`total >= 0`))
    .addColumn("saved", "integer", (c) => c.notNull().check(sql`saved >= 0 and saved <= total`))
    .addPrimaryKeyConstraint("memory_months_pk", ["journal_id", "month"])
    .execute();

  if (kind === "sqlite") {
    const add = sql`
      insert into memory_months (journal_id, month, total, saved)
      select new.journal_id, substr(new.recorded_at, 1, 7), 1, new.status = 'saved'
      where new.journal_id is not null
      on conflict (journal_id, month) do update
      set total = total + 1, saved = saved + excluded.saved;`;
    const remove = sql`
      update memory_months set total = total - 1, saved = saved - (old.status = 'saved')
      where journal_id = old.journal_id and month = substr(old.recorded_at, 1, 7);`;
    await sql`create trigger memory_months_insert after insert on memories begin
      ${add}
    end`.execute(db);
    await sql`create trigger memory_months_delete after delete on memories begin
      ${remove}
    end`.execute(db);
    await sql`create trigger memory_months_update after update of journal_id, status, recorded_at
      on memories
      when old.journal_id is not new.journal_id or old.status is not new.status
        or substr(old.recorded_at, 1, 7) is not substr(new.recorded_at, 1, 7) begin
      ${remove}
      ${add}
    end`.execute(db);
  } else {
    await sql`create function memory_months_apply() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') and old.journal_id is not null then
          update memory_months
            set total = total - 1, saved = saved - (old.status = 'saved')::int
            where journal_id = old.journal_id and month = substr(old.recorded_at, 1, 7);
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.journal_id is not null then
          insert into memory_months (journal_id, month, total, saved)
            values (new.journal_id, substr(new.recorded_at, 1, 7), 1, (new.status = 'saved')::int)
            on conflict (journal_id, month) do update
            set total = memory_months.total + 1, saved = memory_months.saved + excluded.saved;
        end if;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger memory_months_insert_delete after insert or delete on memories
      for each row execute function memory_months_apply()`.execute(db);
    await sql`create trigger memory_months_update after update of journal_id, status, recorded_at
      on memories for each row
      when (old.journal_id is distinct from new.journal_id or old.status is distinct from new.status
        or substr(old.recorded_at, 1, 7) is distinct from substr(new.recorded_at, 1, 7))
      execute function memory_months_apply()`.execute(db);
  }
  const isSaved = kind === "sqlite" ? sql`status = 'saved'` : sql`(status = 'saved')::int`;
  await sql`insert into memory_months (journal_id, month, total, saved)
    select journal_id, substr(recorded_at, 1, 7), count(*), sum(${isSaved}) from memories
    where journal_id is not null group by journal_id, substr(recorded_at, 1, 7)`.execute(db);
}

/** SQLite's full-text words afresh, prefixed by each memory's journal (search-words.ts). */
async function reindexByJournal(db: Kysely<unknown>) {
  // Made anew (as 0013): its prefix indexes cover one to eight letters after the owner part, and
  // a journal's id ('j' + an account's) is one character longer than an account's.
  await sql`drop table if exists memories_fts`.execute(db);
  await sql`create virtual table memories_fts using fts5(
    title, tags, summary, transcript,
    content='', prefix='48 49 50 51 52 53 54 55',
    tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  for (let after = 0; ; ) {
    const rows = (
      await sql<{
        seq: number;
        journal_id: string;
        title: string;
        tags: string;
        summary: string;
        transcript: string;
      }>`select seq, journal_id, title, tags, summary, transcript
        from memories where journal_id is not null and seq > ${after}
        order by seq limit ${BATCH}`.execute(db)
    ).rows;
    for (const row of rows) {
      const text = indexedText(row.journal_id, row);
      await sql`insert into memories_fts (rowid, ${sql.raw(INDEXED_COLUMNS.join(", "))})
        values (${row.seq}, ${sql.join(INDEXED_COLUMNS.map((column) => text[column]))})`.execute(
        db,
      );
    }
    const last = rows.at(-1);
    if (!last) break;
    after = last.seq;
  }
  await sql`insert into memories_fts (memories_fts) values ('optimize')`.execute(db);
}
