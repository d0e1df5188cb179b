import type { Kysely, Selectable } from "kysely";
import type { Database, ShareLinkSubscriptionsTable } from "../db/schema";

export type SubscriptionRow = Selectable<ShareLinkSubscriptionsTable>;

/** The only code that touches `share_link_subscriptions` (relatives' news, ADR 0044). */
export class ShareLinkSubscriptionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the address to the link; false when it was already there. */
  async add(row: SubscriptionRow): Promise<boolean> {
    const result = await this.db
      .insertInto("share_link_subscriptions")
      .values(row)
      .onConflict((oc) => oc.columns(["share_link_id", "email"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async countForLink(shareLinkId: string): Promise<number> {
    const row = await this.db
      .selectFrom("share_link_subscriptions")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("share_link_id", "=", shareLinkId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The addresses on these links, oldest first (the owner's list, and whom news goes to). */
  async listForLinks(shareLinkIds: readonly string[]): Promise<SubscriptionRow[]> {
    if (shareLinkIds.length === 0) return [];
    return this.db
      .selectFrom("share_link_subscriptions")
      .selectAll()
      .where("share_link_id", "in", shareLinkIds)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** Removes the address from its link; false when it was not there. */
  async delete(id: string, shareLinkId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("share_link_subscriptions")
      .where("id", "=", id)
      .where("share_link_id", "=", shareLinkId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The mail went out and covered the news up to `coveredUntil`. Only from where the sender read
   * it (`from`): a later mail is never undone by an earlier one. False when it had moved on.
   */
  async markSent(id: string, from: string, coveredUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable("share_link_subscriptions")
      .set({ covered_until: coveredUntil })
      .where("id", "=", id)
      .where("covered_until", "=", from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
