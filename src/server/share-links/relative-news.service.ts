import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { can } from "../../shared/authorization";
import { formatMessage } from "../../shared/i18n/format";
import type { Language } from "../../shared/i18n/languages";
import {
  SHARE_LINK_PATH_PREFIX,
  SHARE_TOKEN_PATTERN,
  SUBSCRIBERS_PER_LINK,
} from "../../shared/share-links";
import type { Identity } from "../auth/session.service";
import type { Executor } from "../db/transactions";
import { conflict, notFound, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { hashToken, newId } from "../ids";
import type { JobKind } from "../jobs/job-kinds";
import type { JobsRepo } from "../jobs/jobs.repo";
import { accountOfOwnJournal } from "../journals/journals.repo";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import type { MemoriesRepo } from "../memories/memories.repo";
import { type SealedBox, sealedBox } from "../secrets/sealed-box";
import { cachedSecret, type ServerSecretsRepo } from "../secrets/server-secrets.repo";
import type { UsersService } from "../users/users.service";
import type { ShareLinkSubscriptionsRepo, SubscriptionRow } from "./share-link-subscriptions.repo";
import type { ShareLinkRow, ShareLinksRepo } from "./share-links.repo";

const SECRET_NAME = "relative-news";
/** Memories listed in one mail at most; the rest come in the next one. */
const MEMORIES_PER_MAIL = 50;
/** An unconfirmed address gets at most one confirmation mail in this time (no mail bombing). */
export const CONFIRM_MAIL_INTERVAL_MS = 24 * 60 * 60_000;

export const RELATIVE_NEWS_JOB = "relative-news" satisfies JobKind;

export interface RelativeNewsDeps {
  repo: ShareLinkSubscriptionsRepo;
  jobs: Pick<JobsRepo, "enqueue">;
  links: ShareLinksRepo;
  memories: Pick<MemoriesRepo, "madeAfter">;
  users: Pick<UsersService, "getUser">;
  /** The names of the members who told memories, by member id. */
  storytellerNames: (memberIds: readonly string[]) => Promise<Map<string, string>>;
  /** The family questions these memories answered, by memory id: who asked and what. */
  answeredQuestions: (
    memoryIds: readonly string[],
  ) => Promise<Map<string, { askedBy: string; text: string }>>;
  /** A journal's language: a subscriber who named none reads it. */
  journalLanguage: (journalId: string) => Promise<string | undefined>;
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
 * News of new stories for relatives (ADR 0044, sent as jobs: ADR 0055). Saving a memory queues
 * one job per owner, due RELATIVE_DIGEST_MINUTES later, which memories saved meanwhile join; it
 * mails each address on the owner's links the memories saved since its last mail, with links that
 * open each through that link. The queue's lease makes one instance send it, and its retries
 * resend a failed mail. Every mail carries a signed one-click unsubscribe (RFC 8058) that works as
 * long as the share link does.
 */
export class RelativeNewsService {
  private readonly now: () => Date;
  private readonly key: () => Promise<Buffer>;
  private readonly box: SealedBox;

  constructor(private readonly deps: RelativeNewsDeps) {
    this.now = deps.now ?? (() => new Date());
    this.key = cachedSecret(deps.secrets, SECRET_NAME);
    // Only the hash is in share_links; the mail needs the token itself for its links.
    this.box = sealedBox(deps.secrets, SECRET_NAME);
  }

  /**
   * Puts `email` on the link (whose token is `token`). The owner's own address for a link
   * (`confirmed`) gets news at once, with memories made from now. Any other is stored unconfirmed
   * and mailed a signed confirmation link (double opt-in): it gets no news until it confirms, and
   * is not mailed another confirmation within CONFIRM_MAIL_INTERVAL_MS. Again for an address
   * already there: nothing changes. 409 past SUBSCRIBERS_PER_LINK. Its mails are written in
   * `language`.
   */
  async subscribe(
    link: Pick<ShareLinkRow, "id">,
    token: string,
    email: string,
    confirm: { confirmed: true } | { confirmed: false; ownerName: string },
    language: Language,
  ): Promise<void> {
    const address = email.toLowerCase();
    // A soft cap (two racing requests may pass it together): it only bounds abuse.
    if ((await this.deps.repo.countForLink(link.id)) >= SUBSCRIBERS_PER_LINK) {
      // An address already on the link is not refused: it may be asking for its mail again.
      if (
        confirm.confirmed ||
        !(await this.mailConfirmation(link.id, address, confirm.ownerName, language))
      ) {
        throw conflict("share.too_many_subscribers");
      }
      return;
    }
    const now = this.now();
    await this.deps.repo.add({
      id: newId(),
      share_link_id: link.id,
      email: address,
      token_sealed: await this.box.seal(token),
      created_at: now.toISOString(),
      // News is what is made from this moment on (one millisecond back: a memory made alongside).
      covered_until: new Date(now.getTime() - 1).toISOString(),
      confirmed_at: confirm.confirmed ? now.toISOString() : null,
      confirm_sent_at: null,
      language,
    });
    if (!confirm.confirmed) {
      await this.mailConfirmation(link.id, address, confirm.ownerName, language);
    }
  }

  /**
   * Mails the address on the link its confirmation link, unless it is confirmed, was mailed one
   * within CONFIRM_MAIL_INTERVAL_MS, or is not there. True when the address is on the link. In
   * the language the address is asked for in now.
   */
  private async mailConfirmation(
    linkId: string,
    email: string,
    name: string,
    language: Language,
  ): Promise<boolean> {
    const now = this.now();
    const sentAt = now.toISOString();
    const before = new Date(now.getTime() - CONFIRM_MAIL_INTERVAL_MS).toISOString();
    const id = await this.deps.repo.claimConfirmMail(linkId, email, sentAt, before);
    if (id === undefined) return (await this.deps.repo.countAddress(linkId, email)) > 0;
    const words = wordsIn(language);
    try {
      await this.deps.mailer.send({
        to: email,
        subject: formatMessage(words.SHARE_MESSAGES.confirmMailSubject, { name }, language),
        text: [
          words.MAIL_WORDS.hello,
          "",
          formatMessage(words.SHARE_MESSAGES.confirmMailIntro, { name }, language),
          "",
          words.SHARE_MESSAGES.confirmMailAsk,
          await this.confirmUrl(id, linkId),
          "",
          words.SHARE_MESSAGES.confirmMailIgnore,
        ].join("\n"),
        // The signed confirmation link stays out of the outbox's log line.
        secret: true,
      });
    } catch (error) {
      // Not mailed: asking again may send it at once.
      await this.deps.repo.releaseConfirmMail(id, sentAt);
      throw error;
    }
    this.deps.log.info({ relativeNews: { subscription: id } }, "relative news confirmation sent");
    return true;
  }

  /**
   * The relative's own request from the shared view: the browser must hold a live link to
   * `username`'s memories (its share cookie's `tokens`); otherwise 404, as for a missing profile.
   * The address is mailed a confirmation link first. Its mails are in `language` (the shared
   * view's), else the journal's.
   */
  async subscribeWithTokens(
    tokens: readonly string[],
    username: string,
    email: string,
    language?: Language,
  ): Promise<void> {
    for (const token of tokens) {
      if (!SHARE_TOKEN_PATTERN.test(token)) continue;
      const link = await this.deps.links.findByTokenHash(hashToken(token));
      if (!link) continue;
      const maker = accountOfOwnJournal(link.journal_id);
      const owner = maker ? await this.deps.users.getUser(maker) : null;
      if (owner?.username.toLowerCase() === username.toLowerCase()) {
        const ownerName = mailLine(owner.displayName || owner.username);
        const chosen = language ?? languageOf(await this.deps.journalLanguage(link.journal_id));
        return this.subscribe(link, token, email, { confirmed: false, ownerName }, chosen);
      }
    }
    throw notFound();
  }

  /** The addresses on these links, by link id (for the owner's list). */
  async subscribersOf(linkIds: readonly string[]): Promise<Map<string, SubscriberDto[]>> {
    const out = new Map<string, SubscriberDto[]>();
    for (const row of await this.deps.repo.listForLinks(linkIds)) {
      const list = out.get(row.share_link_id) ?? [];
      list.push({ id: row.id, email: row.email, confirmed: row.confirmed_at !== null });
      out.set(row.share_link_id, list);
    }
    return out;
  }

  /** An organizer takes an address off their journal's link: 404 when either is not theirs. */
  async remove(identity: Identity, linkId: string, subscriptionId: string): Promise<void> {
    if (!identity.userId) throw unauthorized();
    const link = await this.deps.links.findById(linkId);
    if (!link || !can(identity, "journal.manage", { id: link.journal_id })) throw notFound();
    if (!(await this.deps.repo.delete(subscriptionId, linkId))) throw notFound();
  }

  // ---- Unsubscribe ------------------------------------------------------------------------

  private async sign(
    purpose: "unsubscribe" | "confirm",
    subscriptionId: string,
    linkId: string,
  ): Promise<string> {
    return createHmac("sha256", await this.key())
      .update(`relative-news-${purpose}:${subscriptionId}:${linkId}`)
      .digest("base64url");
  }

  private async signatureMatches(
    purpose: "unsubscribe" | "confirm",
    subscriptionId: string,
    linkId: string,
    token: string,
  ): Promise<boolean> {
    const expected = Buffer.from(await this.sign(purpose, subscriptionId, linkId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * The language of the address a signed link was mailed to, for the page the link opens:
   * English when the signature is wrong or the address is no longer on the link.
   */
  async languageOfLink(
    purpose: "unsubscribe" | "confirm",
    subscriptionId: string,
    linkId: string,
    token: string,
  ): Promise<Language> {
    if (!(await this.signatureMatches(purpose, subscriptionId, linkId, token))) return "en";
    return languageOf((await this.deps.repo.find(subscriptionId, linkId))?.language);
  }

  /** The one-click address (RFC 8058), also the mail's visible link (a GET asks first). */
  async unsubscribeUrl(subscriptionId: string, linkId: string, base: string): Promise<string> {
    const query = new URLSearchParams({
      s: subscriptionId,
      l: linkId,
      t: await this.sign("unsubscribe", subscriptionId, linkId),
    });
    return `${base.replace(/\/+$/, "")}/api/relative-news/unsubscribe?${query}`;
  }

  /**
   * Whether the signed parameters are good: the signature matches and the share link still
   * exists (the signature ends with the link: revoked, it is refused).
   */
  async checkUnsubscribe(subscriptionId: string, linkId: string, token: string): Promise<boolean> {
    if (!(await this.signatureMatches("unsubscribe", subscriptionId, linkId, token))) return false;
    return (await this.deps.links.findById(linkId)) !== undefined;
  }

  /** Stops the mails; false for a bad signature or a revoked link. Again when already done: true. */
  async unsubscribe(subscriptionId: string, linkId: string, token: string): Promise<boolean> {
    if (!(await this.checkUnsubscribe(subscriptionId, linkId, token))) return false;
    await this.deps.repo.delete(subscriptionId, linkId);
    return true;
  }

  // ---- Confirmation (double opt-in) ------------------------------------------------------

  /** The confirmation mail's link: its GET asks, its POST confirms (mail scanners open links). */
  async confirmUrl(subscriptionId: string, linkId: string): Promise<string> {
    const query = new URLSearchParams({
      s: subscriptionId,
      l: linkId,
      t: await this.sign("confirm", subscriptionId, linkId),
    });
    // On the address the link was made at, as the news it confirms will be.
    const link = await this.deps.links.findById(linkId);
    const base = this.deps.linkBase(link?.origin ?? null).replace(/\/+$/, "");
    return `${base}/api/relative-news/confirm?${query}`;
  }

  /**
   * Where the signed confirmation link stands: "invalid" for a bad signature or an address no
   * longer on the link (removed, unsubscribed, link revoked), else whether it is confirmed yet.
   */
  async confirmation(
    subscriptionId: string,
    linkId: string,
    token: string,
  ): Promise<"invalid" | "unconfirmed" | "confirmed"> {
    if (!(await this.signatureMatches("confirm", subscriptionId, linkId, token))) return "invalid";
    const row = await this.deps.repo.find(subscriptionId, linkId);
    if (!row) return "invalid";
    return row.confirmed_at === null ? "unconfirmed" : "confirmed";
  }

  /**
   * The address confirms: news starts with memories made from now. False for a bad signature or
   * an address no longer on the link; again when already confirmed: true, nothing changes.
   */
  async confirm(subscriptionId: string, linkId: string, token: string): Promise<boolean> {
    const state = await this.confirmation(subscriptionId, linkId, token);
    if (state !== "unconfirmed") return state === "confirmed";
    const now = this.now();
    const covered = new Date(now.getTime() - 1).toISOString();
    await this.deps.repo.confirm(subscriptionId, linkId, now.toISOString(), covered);
    return true;
  }

  // ---- Sending ----------------------------------------------------------------------------

  /**
   * A memory of the journal was saved: its relatives' news goes out once RELATIVE_DIGEST_MINUTES
   * have passed, one job per journal, so memories saved meanwhile join the same mail. Pass the
   * transaction that saves the memory.
   */
  async queue(journalId: string, ex?: Executor): Promise<void> {
    await this.deps.jobs.enqueue(
      { kind: RELATIVE_NEWS_JOB, targetId: journalId, runAfter: this.dueAt(), join: true },
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
  async send(journalId: string, signal: AbortSignal): Promise<Date | undefined> {
    const links = await this.deps.links.listForJournal(journalId);
    // Only the addresses that confirmed get news.
    const subscriptions = await this.deps.repo.listForLinks(
      links.map((link) => link.id),
      "confirmed",
    );
    const bases = new Map(
      links.map((link) => [link.id, this.deps.linkBase(link.origin).replace(/\/+$/, "")]),
    );
    // The mails speak in the name of the account that made the journal, as its profile does.
    const maker = accountOfOwnJournal(journalId);
    const owner = subscriptions.length > 0 && maker ? await this.deps.users.getUser(maker) : null;
    if (!owner) return undefined;
    let failed: unknown;
    let waiting = false;
    for (const row of subscriptions) {
      signal.throwIfAborted();
      try {
        const base = bases.get(row.share_link_id) ?? this.deps.linkBase(null);
        const name = mailLine(owner.displayName || owner.username);
        waiting = (await this.sendOne(row, journalId, name, base)) || waiting;
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
    journalId: string,
    name: string,
    base: string,
  ): Promise<boolean> {
    const made = await this.deps.memories.madeAfter(
      journalId,
      row.covered_until,
      MEMORIES_PER_MAIL,
    );
    // News runs up to the first memory still processing (it comes in a later mail once saved),
    // and stops short of the last moment a full page reaches, so that no memory is skipped.
    let cut = made.find((memory) => memory.status === "processing")?.created_at;
    if (cut === undefined && made.length === MEMORIES_PER_MAIL) cut = made.at(-1)?.created_at;
    const covered = made.filter((memory) => cut === undefined || memory.created_at < cut);
    const listed = covered.filter((memory) => memory.status === "saved");
    const coveredUntil = covered.at(-1)?.created_at;
    const waiting = cut !== undefined;
    if (listed.length === 0 || coveredUntil === undefined) return waiting;
    const token = await this.box.unseal(row.token_sealed);
    const unsubscribe = await this.unsubscribeUrl(row.id, row.share_link_id, base);
    const [tellers, questions] = await Promise.all([
      this.deps.storytellerNames(
        listed.flatMap((memory) => (memory.storyteller_id ? [memory.storyteller_id] : [])),
      ),
      this.deps.answeredQuestions(listed.map((memory) => memory.id)),
    ]);
    // In the language the address asked for the news in.
    const language = languageOf(row.language);
    const words = wordsIn(language);
    await this.deps.mailer.send({
      to: row.email,
      subject: formatMessage(words.SHARE_MESSAGES.newsMailSubject, { name }, language),
      text: [
        words.MAIL_WORDS.hello,
        "",
        formatMessage(words.SHARE_MESSAGES.newsMailIntro, { name }, language),
        "",
        ...listed.flatMap((memory) => {
          const teller = tellers.get(memory.storyteller_id ?? "");
          const asked = questions.get(memory.id);
          // "Grandma Rose answered Lucas's question: …" in place of "Told by", when it did.
          const byLine =
            teller && asked?.askedBy
              ? formatMessage(
                  words.FAMILY_QUESTION_NEWS.answered,
                  {
                    teller: mailLine(teller),
                    asker: mailLine(asked.askedBy),
                    question: mailLine(asked.text),
                  },
                  language,
                )
              : teller
                ? formatMessage(words.JOURNAL_MESSAGES.toldBy, { name: mailLine(teller) }, language)
                : undefined;
          return [
            `- ${mailLine(memory.title) || words.MESSAGES.untitledMemory}`,
            ...(byLine ? [`  ${byLine}`] : []),
            `  ${base}${SHARE_LINK_PATH_PREFIX}${token}/${memory.id}`,
          ];
        }),
        "",
        "--",
        formatMessage(words.SHARE_MESSAGES.newsMailWhy, { name }, language),
        `${words.SHARE_MESSAGES.newsMailStop} ${unsubscribe}`,
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
  confirmed: boolean;
}
