import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

export const initialSchema: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    await db.schema
      .createTable("users")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("username", "text", (c) => c.notNull())
      .addColumn("username_lower", "text", (c) => c.notNull().unique())
      .addColumn("display_name", "text")
      .addColumn("email", "text")
      .addColumn("email_lower", "text")
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("is_public", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("users_email_lower").on("users").column("email_lower").execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("last_seen_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

    await db.schema
      .createTable("password_reset_tokens")
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("password_reset_tokens_user_id")
      .on("password_reset_tokens")
      .column("user_id")
      .execute();

    await db.schema
      .createTable("audio_files")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("storage_key", "text", (c) => c.notNull().unique())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("bytes", "integer", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("owner_anon_hash", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();

    let memories = db.schema.createTable("memories");
    memories =
      kind === "sqlite"
        ? memories
            .addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement())
            .addColumn("id", "text", (c) => c.notNull().unique())
        : memories
            .addColumn("seq", "bigserial", (c) => c.notNull())
            .addColumn("id", "text", (c) => c.primaryKey());
    await memories
      .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("anon_owner_hash", "text")
      .addColumn("claim_expires_at", "text")
      .addColumn("audio_id", "text", (c) => c.references("audio_files.id"))
      .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("transcript", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("scores", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("duration", "real", (c) => c.notNull().defaultTo(0))
      .addColumn("recorded_at", "text", (c) => c.notNull())
      .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("stage", "text")
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("memories_user_recorded")
      .on("memories")
      .columns(["user_id", "recorded_at"])
      .execute();
    await db.schema.createIndex("memories_status").on("memories").column("status").execute();
    await db.schema
      .createIndex("memories_anon_owner")
      .on("memories")
      .column("anon_owner_hash")
      .execute();

    await db.schema
      .createTable("comments")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("memory_id", "text", (c) =>
        c.notNull().references("memories.id").onDelete("cascade"),
      )
      .addColumn("commenter_name", "text", (c) => c.notNull())
      .addColumn("audio_id", "text", (c) => c.references("audio_files.id"))
      .addColumn("transcript", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("comments_memory_created")
      .on("comments")
      .columns(["memory_id", "created_at"])
      .execute();

    await db.schema
      .createTable("jobs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("target_id", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("run_after", "text", (c) => c.notNull())
      .addColumn("locked_by", "text")
      .addColumn("locked_until", "text")
      .addColumn("last_error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("jobs_kind_target", ["kind", "target_id"])
      .execute();
    await db.schema
      .createIndex("jobs_status_run_after")
      .on("jobs")
      .columns(["status", "run_after"])
      .execute();

    // Full-text search over title, transcript, summary and tags: the one real dialect branch.
    // Both use plain (unstemmed) tokens so prefix search behaves the same on each.
    if (kind === "sqlite") {
      await sql`create virtual table memories_fts using fts5(
        title, transcript, summary, tags,
        content='memories', content_rowid='seq',
        tokenize='unicode61 remove_diacritics 2'
      )`.execute(db);
      await sql`create trigger memories_fts_insert after insert on memories begin
        insert into memories_fts(rowid, title, transcript, summary, tags)
        values (new.seq, new.title, new.transcript, new.summary, new.tags);
      end`.execute(db);
      await sql`create trigger memories_fts_delete after delete on memories begin
        insert into memories_fts(memories_fts, rowid, title, transcript, summary, tags)
        values ('delete', old.seq, old.title, old.transcript, old.summary, old.tags);
      end`.execute(db);
      await sql`create trigger memories_fts_update after update of title, transcript, summary, tags on memories begin
        insert into memories_fts(memories_fts, rowid, title, transcript, summary, tags)
        values ('delete', old.seq, old.title, old.transcript, old.summary, old.tags);
        insert into memories_fts(rowid, title, transcript, summary, tags)
        values (new.seq, new.title, new.transcript, new.summary, new.tags);
      end`.execute(db);
    } else {
      await sql`alter table memories add column search_vector tsvector generated always as (
        setweight(to_tsvector('simple', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('simple', coalesce(tags, '')), 'A') ||
        setweight(to_tsvector('simple', coalesce(summary, '')), 'B') ||
        setweight(to_tsvector('simple', coalesce(transcript, '')), 'C')
      ) stored`.execute(db);
      await sql`create index memories_search_vector on memories using gin (search_vector)`.execute(
        db,
      );
    }
  },
};
