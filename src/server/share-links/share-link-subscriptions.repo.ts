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

  /**
   * The addresses on these links, oldest first: all of them (the owner's list), or only the
   * confirmed ones (whom news goes to).
   */
  async listForLinks(
    shareLinkIds: readonly string[],
    only: "all" | "confirmed" = "all",
  ): Promise<SubscriptionRow[]> {
    if (shareLinkIds.length === 0) return [];
    let query = this.db
      .selectFrom("share_link_subscriptions")
      .selectAll()
      .where("share_link_id", "in", shareLinkIds);
    if (only === "confirmed") query = query.where("confirmed_at", "is not", null);
    return query.orderBy("created_at").orderBy("id").execute();
  }

  /** Whether the address is on the link (1) or not (0). */
  async countAddress(shareLinkId: string, email: string): Promise<number> {
    const row = await this.db
      .selectFrom("share_link_subscriptions")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("share_link_id", "=", shareLinkId)
      .where("email", "=", email)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(id: string, shareLinkId: string): Promise<SubscriptionRow | undefined> {
    return this.db
      .selectFrom("share_link_subscriptions")
      .selectAll()
      .where("id", "=", id)
      .where("share_link_id", "=", shareLinkId)
      .executeTakeFirst();
  }

  /**
   * Takes the turn to mail the unconfirmed address on the link its confirmation: only when none
   * went since `before` (so one address is not mailed again and again). Answers its id, or
   * undefined when it is confirmed, absent, or was mailed recently. Atomic: of two racing
   * requests, one mails.
   */
  async claimConfirmMail(
    shareLinkId: string,
    email: string,
    now: string,
    before: string,
  ): Promise<string | undefined> {
    const row = await this.db
      .updateTable("share_link_subscriptions")
      .set({ confirm_sent_at: now })
      .where("share_link_id", "=", shareLinkId)
      .where("email", "=", email)
      .where("confirmed_at", "is", null)
      .where((eb) =>
        eb.or([eb("confirm_sent_at", "is", null), eb("confirm_sent_at", "<=", before)]),
      )
      .returning("id")
      .executeTakeFirst();
    return row?.id;
  }

  /** The confirmation mail did not go: the next request may send it again at once. */
  async releaseConfirmMail(id: string, sentAt: string): Promise<void> {
    await this.db
      .updateTable("share_link_subscriptions")
      .set({ confirm_sent_at: null })
      .where("id", "=", id)
      .where("confirm_sent_at", "=", sentAt)
      .execute();
  }

  /**
   * The address confirmed: news from now on (`coveredUntil`). False when it was already
   * confirmed or is gone.
   */
  async confirm(
    id: string,
    shareLinkId: string,
    now: string,
    coveredUntil: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("share_link_subscriptions")
      .set({ confirmed_at: now, covered_until: coveredUntil })
      .where("id", "=", id)
      .where("share_link_id", "=", shareLinkId)
      .where("confirmed_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
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
