import type { Kysely, Selectable } from "kysely";
import type { Database, ShareLinksTable } from "../db/schema";
import type { Executor } from "../db/transactions";

export type ShareLinkRow = Selectable<ShareLinksTable>;

/** The only code that touches the share_links table (ADR 0019); tokens are stored as hashes. */
export class ShareLinksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(
    row: Omit<ShareLinkRow, "visits" | "last_used_at" | "origin"> & { origin?: string | null },
    ex: Executor = this.db,
  ): Promise<ShareLinkRow> {
    await ex.insertInto("share_links").values(row).execute();
    return { ...row, origin: row.origin ?? null, visits: 0, last_used_at: null };
  }

  /** The address the link was last made or used at by its owner (migration 0021). */
  async rememberOrigin(id: string, origin: string): Promise<void> {
    await this.db.updateTable("share_links").set({ origin }).where("id", "=", id).execute();
  }

  async countForJournal(journalId: string, ex: Executor = this.db): Promise<number> {
    const row = await ex
      .selectFrom("share_links")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("journal_id", "=", journalId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A journal's links, newest first. */
  listForJournal(journalId: string): Promise<ShareLinkRow[]> {
    return this.db
      .selectFrom("share_links")
      .selectAll()
      .where("journal_id", "=", journalId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .execute();
  }

  /** The journal's links with exactly this label, newest first. */
  listByLabel(journalId: string, label: string): Promise<ShareLinkRow[]> {
    return this.db
      .selectFrom("share_links")
      .selectAll()
      .where("journal_id", "=", journalId)
      .where("label", "=", label)
      .orderBy("created_at", "desc")
      .execute();
  }

  findById(id: string): Promise<ShareLinkRow | undefined> {
    return this.db.selectFrom("share_links").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findByTokenHash(tokenHash: string): Promise<ShareLinkRow | undefined> {
    return this.db
      .selectFrom("share_links")
      .selectAll()
      .where("token_hash", "=", tokenHash)
      .executeTakeFirst();
  }

  /** The live links among these token hashes (revoked ones are gone). */
  async findByTokenHashes(tokenHashes: readonly string[]): Promise<ShareLinkRow[]> {
    if (tokenHashes.length === 0) return [];
    return this.db
      .selectFrom("share_links")
      .selectAll()
      .where("token_hash", "in", tokenHashes)
      .execute();
  }

  /** One more visit through the link (it was opened). False when it was revoked meanwhile. */
  async recordVisit(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable("share_links")
      .set((eb) => ({ visits: eb("visits", "+", 1), last_used_at: at }))
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks links as used at `at` unless they were marked after `since` (reads stay reads). */
  async touch(ids: readonly string[], at: string, since: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable("share_links")
      .set({ last_used_at: at })
      .where("id", "in", ids)
      .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", since)]))
      .execute();
  }

  /** Revokes the journal's link; false when it does not exist or is another journal's. */
  async delete(id: string, journalId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("share_links")
      .where("id", "=", id)
      .where("journal_id", "=", journalId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
