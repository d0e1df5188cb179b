import type { Kysely, Selectable } from "kysely";
import type { Database, ShareLinkSubscriptionsTable } from "../db/schema";

export type SubscriptionRow = Selectable<ShareLinkSubscriptionsTable>;

/** The only code that touches `share_link_subscriptions` (relatives' news, ADR 0044). */
export class ShareLinkSubscriptionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the address to the link; false when it was already there. */
  async add(row: Omit<SubscriptionRow, "last_sent_at" | "locked_until">): Promise<boolean> {
    const result = await this.db
      .insertInto("share_link_subscriptions")
      .values({ ...row, last_sent_at: null, locked_until: null })
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

  /** The addresses on these links, oldest first (for the owner's list). */
  async listForLinks(shareLinkIds: readonly string[]) {
    if (shareLinkIds.length === 0) return [];
    return this.db
      .selectFrom("share_link_subscriptions")
      .select(["id", "share_link_id", "email"])
      .where("share_link_id", "in", shareLinkIds)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** One page of every subscription, by id, for the sender. */
  listAfter(afterId: string, limit: number): Promise<SubscriptionRow[]> {
    return this.db
      .selectFrom("share_link_subscriptions")
      .selectAll()
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
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
   * Claims the subscription for one mail until `lockedUntil`. One instance wins: the update only
   * matches while no live claim exists, no mail went out after `sentBefore`, and the news still
   * starts where this sender read it (`coveredUntil`), so a mail another instance just sent is
   * never sent again.
   */
  async claim(
    id: string,
    coveredUntil: string,
    now: Date,
    sentBefore: Date,
    lockedUntil: Date,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("share_link_subscriptions")
      .set({ locked_until: lockedUntil.toISOString() })
      .where("id", "=", id)
      .where("covered_until", "=", coveredUntil)
      .where((eb) =>
        eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now.toISOString())]),
      )
      .where((eb) =>
        eb.or([eb("last_sent_at", "is", null), eb("last_sent_at", "<=", sentBefore.toISOString())]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The mail went out: it covered the news up to `coveredUntil`. */
  async markSent(id: string, sentAt: Date, coveredUntil: string): Promise<void> {
    await this.db
      .updateTable("share_link_subscriptions")
      .set({ last_sent_at: sentAt.toISOString(), covered_until: coveredUntil, locked_until: null })
      .where("id", "=", id)
      .execute();
  }

  /** The mail failed: the claim is let go, and the next check tries again. */
  async release(id: string): Promise<void> {
    await this.db
      .updateTable("share_link_subscriptions")
      .set({ locked_until: null })
      .where("id", "=", id)
      .execute();
  }
}
