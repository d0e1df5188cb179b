import { type Kysely, sql } from "kysely";
import { newId } from "../../ids";
import type { DialectMigration } from "../migrate";

/**
 * Relatives' news is a job on the queue (ADR 0055): the sending claim (`locked_until`) and the
 * spacing of the mails (`last_sent_at`) go. News waiting at the upgrade still goes out: every owner
 * with an address on a link gets a `relative-news` job, due now (one with nothing new sends nothing).
 */
export const relativeNewsAsJobs: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("share_link_subscriptions").dropColumn("locked_until").execute();
    await db.schema.alterTable("share_link_subscriptions").dropColumn("last_sent_at").execute();
    const owners = await sql<{ user_id: string }>`
      select distinct l.user_id from share_links l
      join share_link_subscriptions s on s.share_link_id = l.id`.execute(db);
    const now = new Date().toISOString();
    for (const { user_id } of owners.rows) {
      await sql`
        insert into jobs (id, kind, target_id, status, attempts, run_after, created_at, updated_at)
        values (${newId()}, 'relative-news', ${user_id}, 'queued', 0, ${now}, ${now}, ${now})
        on conflict (kind, target_id) do nothing`.execute(db);
    }
  },
};
