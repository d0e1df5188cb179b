import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { can } from "../../shared/authorization";
import { MESSAGES } from "../../shared/messages";
import {
  SHARE_LINK_PATH_PREFIX,
  SHARE_MESSAGES,
  SHARE_TOKEN_PATTERN,
  SUBSCRIBERS_PER_LINK,
} from "../../shared/share-links";
import type { Executor } from "../db/transactions";
import { conflict, notFound } from "../http-errors";
import { hashToken, newId } from "../ids";
import type { JobKind } from "../jobs/job-kinds";
import type { JobsRepo } from "../jobs/jobs.repo";
import type { Mailer } from "../mail/mailer";
import type { MemoriesRepo } from "../memories/memories.repo";
import { cachedSecret, type ServerSecretsRepo } from "../secrets/server-secrets.repo";
import type { UsersService } from "../users/users.service";
import type { ShareLinkSubscriptionsRepo, SubscriptionRow } from "./share-link-subscriptions.repo";
import type { ShareLinkRow, ShareLinksRepo } from "./share-links.repo";

const SECRET_NAME = "relative-news";
/** Memories listed in one mail at most; the rest come in the next one. */
const MEMORIES_PER_MAIL = 50;

export const RELATIVE_NEWS_JOB = "relative-news" satisfies JobKind;

export interface RelativeNewsDeps {
  repo: ShareLinkSubscriptionsRepo;
  jobs: Pick<JobsRepo, "enqueue">;
  links: ShareLinksRepo;
  memories: Pick<MemoriesRepo, "madeAfter">;
  users: Pick<UsersService, "getUser">;
  mailer: Mailer;
  secrets: Pick<ServerSecretsRepo, "getOrCreate">;
  /**
   * The address a mail's links are built on, given the one its share link remembers (APP_URL
   * when set; else that one, else the configured fallback).
   */
  linkBase: (remembered: string | null) => string;
  /** How long news waits for the memories saved after it (RELATIVE_DIGEST_MINUTES). */
  digestMinutes: number;
  log: Pick<FastifyBaseLogger, "info" | "error">;
  now?: () => Date;
}

/**
 * News of new stories for relatives (ADR 0044, sent as jobs: ADR 0060). Saving a memory queues
 * one job per owner, due RELATIVE_DIGEST_MINUTES later, which memories saved meanwhile join; it
 * mails each address on the owner's links the memories saved since its last mail, with links that
 * open each through that link. The queue's lease makes one instance send it, and its retries
 * resend a failed mail. Every mail carries a signed one-click unsubscribe (RFC 8058) that works as
 * long as the share link does.
 */
export class RelativeNewsService {
  private readonly now: () => Date;
  private readonly key: () => Promise<Buffer>;

  constructor(private readonly deps: RelativeNewsDeps) {
    this.now = deps.now ?? (() => new Date());
    this.key = cachedSecret(deps.secrets, SECRET_NAME);
  }

  private async sealKey(): Promise<Buffer> {
    return createHmac("sha256", await this.key())
      .update("seal")
      .digest();
  }

  /**
   * The link's token, encrypted (AES-256-GCM with a server secret): only the hash is in
   * share_links, and the mail needs the token itself for its links.
   */
  private async seal(token: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", await this.sealKey(), iv);
    const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
  }

  private async unseal(sealed: string): Promise<string> {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", await this.sealKey(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  }

  /**
   * Puts `email` on the link (whose token is `token`); news starts with memories made from now.
   * Again for an address already there: nothing changes. 409 past SUBSCRIBERS_PER_LINK.
   */
  async subscribe(link: Pick<ShareLinkRow, "id">, token: string, email: string): Promise<void> {
    // A soft cap (two racing requests may pass it together): it only bounds abuse.
    if ((await this.deps.repo.countForLink(link.id)) >= SUBSCRIBERS_PER_LINK) {
      throw conflict("share.too_many_subscribers");
    }
    const now = this.now();
    await this.deps.repo.add({
      id: newId(),
      share_link_id: link.id,
      email: email.toLowerCase(),
      token_sealed: await this.seal(token),
      created_at: now.toISOString(),
      // News is what is made from this moment on (one millisecond back: a memory made alongside).
      covered_until: new Date(now.getTime() - 1).toISOString(),
    });
  }

  /**
   * The relative's own request from the shared view: the browser must hold a live link to
   * `username`'s memories (its share cookie's `tokens`); otherwise 404, as for a missing profile.
   */
  async subscribeWithTokens(
    tokens: readonly string[],
    username: string,
    email: string,
  ): Promise<void> {
    for (const token of tokens) {
      if (!SHARE_TOKEN_PATTERN.test(token)) continue;
      const link = await this.deps.links.findByTokenHash(hashToken(token));
      if (!link) continue;
      const owner = await this.deps.users.getUser(link.user_id);
      if (owner?.username.toLowerCase() === username.toLowerCase()) {
        return this.subscribe(link, token, email);
      }
    }
    throw notFound();
  }

  /** The addresses on these links, by link id (for the owner's list). */
  async subscribersOf(linkIds: readonly string[]): Promise<Map<string, SubscriberDto[]>> {
    const out = new Map<string, SubscriberDto[]>();
    for (const row of await this.deps.repo.listForLinks(linkIds)) {
      const list = out.get(row.share_link_id) ?? [];
      list.push({ id: row.id, email: row.email });
      out.set(row.share_link_id, list);
    }
    return out;
  }

  /** The owner takes an address off their link: 404 when either is not theirs. */
  async remove(userId: string, linkId: string, subscriptionId: string): Promise<void> {
    const link = await this.deps.links.findById(linkId);
    if (!link || !can({ userId }, "profile.manage", { id: link.user_id })) throw notFound();
    if (!(await this.deps.repo.delete(subscriptionId, linkId))) throw notFound();
  }

  // ---- Unsubscribe ------------------------------------------------------------------------

  private async sign(subscriptionId: string, linkId: string): Promise<string> {
    return createHmac("sha256", await this.key())
      .update(`relative-news-unsubscribe:${subscriptionId}:${linkId}`)
      .digest("base64url");
  }

  /** The one-click address (RFC 8058), also the mail's visible link (a GET asks first). */
  async unsubscribeUrl(subscriptionId: string, linkId: string, base: string): Promise<string> {
    const query = new URLSearchParams({
      s: subscriptionId,
      l: linkId,
      t: await this.sign(subscriptionId, linkId),
    });
    return `${base.replace(/\/+$/, "")}/api/relative-news/unsubscribe?${query}`;
  }

  /**
   * Whether the signed parameters are good: the signature matches and the share link still
   * exists (the signature ends with the link: revoked, it is refused).
   */
  async checkUnsubscribe(subscriptionId: string, linkId: string, token: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(subscriptionId, linkId));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    return (await this.deps.links.findById(linkId)) !== undefined;
  }

  /** Stops the mails; false for a bad signature or a revoked link. Again when already done: true. */
  async unsubscribe(subscriptionId: string, linkId: string, token: string): Promise<boolean> {
    if (!(await this.checkUnsubscribe(subscriptionId, linkId, token))) return false;
    await this.deps.repo.delete(subscriptionId, linkId);
    return true;
  }

  // ---- Sending ----------------------------------------------------------------------------

  /**
   * A memory of `userId` was saved: their relatives' news goes out once RELATIVE_DIGEST_MINUTES
   * have passed, one job per owner, so memories saved meanwhile join the same mail. Pass the
   * transaction that saves the memory.
   */
  async queue(userId: string, ex?: Executor): Promise<void> {
    await this.deps.jobs.enqueue(
      { kind: RELATIVE_NEWS_JOB, targetId: userId, runAfter: this.dueAt(), join: true },
      ex,
    );
  }

  private dueAt(): Date {
    return new Date(this.now().getTime() + this.deps.digestMinutes * 60_000);
  }

  /**
   * The job: mails each address on the owner's links what was saved since its last mail, and
   * records it per address. Throws when a mail failed, after trying the others: the queue tries
   * again, and only the addresses still behind are mailed. Answers when to look again, when some
   * news had to wait (a memory still processing, or more than one mail holds).
   */
  async send(userId: string, signal: AbortSignal): Promise<Date | undefined> {
    const links = await this.deps.links.listForUser(userId);
    const subscriptions = await this.deps.repo.listForLinks(links.map((link) => link.id));
    const bases = new Map(
      links.map((link) => [link.id, this.deps.linkBase(link.origin).replace(/\/+$/, "")]),
    );
    const owner = subscriptions.length > 0 ? await this.deps.users.getUser(userId) : undefined;
    if (!owner) return undefined;
    let failed: unknown;
    let waiting = false;
    for (const row of subscriptions) {
      signal.throwIfAborted();
      try {
        const base = bases.get(row.share_link_id) ?? this.deps.linkBase(null);
        waiting =
          (await this.sendOne(row, userId, owner.displayName || owner.username, base)) || waiting;
      } catch (error) {
        this.deps.log.error({ err: error, subscription: row.id }, "relative news mail failed");
        failed ??= error;
      }
    }
    if (failed) throw failed;
    return waiting ? this.dueAt() : undefined;
  }

  /** Mails one address its news, if any; true when some had to wait for a later mail. */
  private async sendOne(
    row: SubscriptionRow,
    userId: string,
    name: string,
    base: string,
  ): Promise<boolean> {
    const made = await this.deps.memories.madeAfter(userId, row.covered_until, MEMORIES_PER_MAIL);
    // News runs up to the first memory still processing (it comes in a later mail once saved),
    // and stops short of the last moment a full page reaches, so that no memory is skipped.
    let cut = made.find((memory) => memory.status === "processing")?.created_at;
    if (cut === undefined && made.length === MEMORIES_PER_MAIL) cut = made.at(-1)?.created_at;
    const covered = made.filter((memory) => cut === undefined || memory.created_at < cut);
    const listed = covered.filter((memory) => memory.status === "saved");
    const coveredUntil = covered.at(-1)?.created_at;
    const waiting = cut !== undefined;
    if (listed.length === 0 || coveredUntil === undefined) return waiting;
    const token = await this.unseal(row.token_sealed);
    const unsubscribe = await this.unsubscribeUrl(row.id, row.share_link_id, base);
    await this.deps.mailer.send({
      to: row.email,
      subject: SHARE_MESSAGES.newsMailSubject(name),
      text: [
        "Hello,",
        "",
        SHARE_MESSAGES.newsMailIntro(name),
        "",
        ...listed.flatMap((memory) => [
          `- ${memory.title || MESSAGES.untitledMemory}`,
          `  ${base}${SHARE_LINK_PATH_PREFIX}${token}/${memory.id}`,
        ]),
        "",
        "--",
        SHARE_MESSAGES.newsMailWhy(name),
        `${SHARE_MESSAGES.newsMailStop} ${unsubscribe}`,
      ].join("\n"),
      // The share link's token and the signed unsubscribe stay out of the outbox's log line.
      secret: true,
      headers: {
        "List-Unsubscribe": `<${unsubscribe}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
    await this.deps.repo.markSent(row.id, row.covered_until, coveredUntil);
    this.deps.log.info(
      { relativeNews: { subscription: row.id, memories: listed.length } },
      "relative news sent",
    );
    return waiting;
  }
}

export interface SubscriberDto {
  id: string;
  email: string;
}
