import { type Kysely, sql } from "kysely";
import type { DialectMigration } from "../migrate";

/**
 * PostgreSQL's (user_id, seq) index: bounded search takes a user's newest matches by seq
 * (memory-search.postgres.ts). This migration also made per-user counts and rebuilt SQLite's
 * full-text index; migration 0013 replaced both, so new databases no longer build them
 * (databases that ran it have them dropped by 0013).
 */
export const countsAndSearchIndex: DialectMigration = {
  async up(db: Kysely<unknown>, kind) {
    if (kind === "postgres") {
      await sql`create index memories_user_seq on memories (user_id, seq)`.execute(db);
    }
  },
};
