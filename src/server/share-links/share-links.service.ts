import { createHmac } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { formatMessage } from "../../shared/i18n/format";
import {
  type CreatedShareLink,
  memoryBookLinkLabel,
  SHARE_LINK_PATH_PREFIX,
  SHARE_LINKS_PER_USER,
  SHARE_TOKEN_PATTERN,
  type ShareLink,
} from "../../shared/share-links";
import { conflict, notFound, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { hashToken, newId, newSecretToken } from "../ids";
import { accountOfOwnJournal } from "../journals/journals.repo";
import type { JournalOrganizer } from "../journals/journals.service";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import { cachedSecret, type ServerSecretsRepo } from "../secrets/server-secrets.repo";
import type { UsersService } from "../users/users.service";
import type { RelativeNewsService } from "./relative-news.service";
import type { ShareLinkRow, ShareLinksRepo } from "./share-links.repo";

/** last_used_at is written at most this often per link while it is in use, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** A browser keeps at most this many links (newest first); older ones simply drop out. */
export const MAX_GRANTS_PER_BROWSER = 20;

export interface ShareLinksServiceDeps {
  repo: ShareLinksRepo;
  users: UsersService;
  mailer: Mailer;
  secrets: Pick<ServerSecretsRepo, "getOrCreate">;
  /** News of new stories: a link mailed to an address also sends it news (ADR 0044). */
  news: Pick<RelativeNewsService, "subscribe" | "subscribersOf">;
  /** A journal's language (what a relative mailed a link reads when nothing else is known). */
  journalLanguage: (journalId: string) => Promise<string | undefined>;
  log: Pick<FastifyBaseLogger, "error">;
  now?: () => Date;
}

/** A share link's address on `base` (APP_URL, or the address the owner uses). */
function urlOf(base: string, token: string): string {
  return `${base.replace(/\/+$/, "")}${SHARE_LINK_PATH_PREFIX}${token}`;
}

/** The server secret that memory books' link tokens are derived with. */
const BOOK_SECRET_NAME = "memory-book-links";

export function toShareLinkDto(
  row: ShareLinkRow,
  subscribers: ShareLink["subscribers"] = [],
): ShareLink {
  return {
    id: row.id,
    label: row.label,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    visits: Number(row.visits),
    subscribers,
  };
}

/**
 * Private share links (ADR 0019): capability links that let a browser see one owner's profile as
 * if it were public (list, search, memories, audio, spoken comments) and nothing more. A link's
 * token is 256 random bits, kept only as its SHA-256 hash; a browser that opened it carries the
 * token in an HttpOnly cookie and every request checks it against the table again, so revoking
 * (deleting the row) ends access at once everywhere.
 */
export class ShareLinksService {
  private readonly now: () => Date;
  private readonly bookKey: () => Promise<Buffer>;

  constructor(private readonly deps: ShareLinksServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.bookKey = cachedSecret(deps.secrets, BOOK_SECRET_NAME);
  }

  /**
   * Makes a link of the organizer's journal and, when `email` is given, mails it there. `base` is the address
   * its url is built on (`linkBaseOf`: APP_URL, or the one the owner is using), which the link
   * remembers for the news mailed later.
   */
  async create(
    { userId, journalId }: Pick<JournalOrganizer, "userId" | "journalId">,
    input: { label: string; email: string | null },
    base: string,
  ): Promise<CreatedShareLink> {
    const owner = await this.deps.users.getUser(userId);
    if (!owner) throw unauthorized();
    const token = newSecretToken();
    const row = await this.insert({ userId, journalId }, newId(), token, input.label, base);
    const url = urlOf(base, token);
    let mailed = false;
    if (input.email) {
      const name = mailLine(owner.displayName || owner.username);
      // The organizer typed only an address: the relative reads the journal's language, and so
      // does the news this address gets.
      const language = languageOf(await this.deps.journalLanguage(journalId));
      const words = wordsIn(language);
      try {
        await this.deps.mailer.send({
          to: input.email,
          subject: formatMessage(words.SHARE_LINK_MAIL.subject, { name }, language),
          text: [
            words.MAIL_WORDS.hello,
            "",
            formatMessage(words.SHARE_LINK_MAIL.shared, { name }, language),
            words.SHARE_LINK_MAIL.action,
            "",
            url,
            "",
            words.SHARE_LINK_MAIL.keep,
            "",
            words.SHARE_LINK_MAIL.news,
          ].join("\n"),
          secret: true,
        });
        mailed = true;
        // The owner typed the address and the link itself goes there: no confirmation asked.
        await this.deps.news.subscribe(row, token, input.email, { confirmed: true }, language);
      } catch (error) {
        // The link exists and is answered; the owner sees it was not mailed and can copy it.
        this.deps.log.error({ err: error }, "share link mail failed");
      }
    }
    const subscribers = (await this.deps.news.subscribersOf([row.id])).get(row.id);
    return { ...toShareLinkDto(row, subscribers), url, mailed };
  }

  /**
   * The address of the share link a memory book's QR codes open (ADR 0042): one per journal and
   * day, labelled "Memory book, <date>", listed and revoked like any other link. Its token is an
   * HMAC of the link's id with a server secret, so a second book that day finds the same link again
   * although only the token's hash is stored; a link the owner made by hand with the same label
   * never matches (its token is random). Once revoked, the next book makes a new one.
   */
  async bookLink(
    organizer: Pick<JournalOrganizer, "userId" | "journalId">,
    base: string,
  ): Promise<string> {
    const label = memoryBookLinkLabel(this.now());
    const secret = await this.bookKey();
    const tokenOf = (id: string) =>
      createHmac("sha256", secret).update(`memory-book:${id}`).digest("base64url");
    for (const row of await this.deps.repo.listByLabel(organizer.journalId, label)) {
      const token = tokenOf(row.id);
      if (hashToken(token) === row.token_hash) {
        if (row.origin !== base) await this.deps.repo.rememberOrigin(row.id, base);
        return urlOf(base, token);
      }
    }
    const id = newId();
    const token = tokenOf(id);
    await this.insert(organizer, id, token, label, base);
    return urlOf(base, token);
  }

  /** Stores a new link of the owner's (409 past SHARE_LINKS_PER_USER). */
  private async insert(
    { userId, journalId }: Pick<JournalOrganizer, "userId" | "journalId">,
    id: string,
    token: string,
    label: string,
    base: string,
  ) {
    // A soft cap (two racing requests may pass it together): it only bounds abuse.
    if ((await this.deps.repo.countForJournal(journalId)) >= SHARE_LINKS_PER_USER) {
      throw conflict("share.too_many");
    }
    return this.deps.repo.create({
      id,
      user_id: userId,
      journal_id: journalId,
      token_hash: hashToken(token),
      label,
      created_at: this.now().toISOString(),
      origin: base,
    });
  }

  async list(journalId: string): Promise<ShareLink[]> {
    const rows = await this.deps.repo.listForJournal(journalId);
    const subscribers = await this.deps.news.subscribersOf(rows.map((row) => row.id));
    return rows.map((row) => toShareLinkDto(row, subscribers.get(row.id)));
  }

  /** Revokes a journal's link: 404 when it does not exist or is another journal's. */
  async revoke(journalId: string, id: string): Promise<void> {
    if (!(await this.deps.repo.delete(id, journalId))) throw notFound();
  }

  /**
   * Opening a link: counts the visit and answers the owner's username, or null for a malformed,
   * unknown or revoked token (the caller answers exactly like a missing profile).
   */
  async open(token: string): Promise<{ username: string } | null> {
    if (!SHARE_TOKEN_PATTERN.test(token)) return null;
    const link = await this.deps.repo.findByTokenHash(hashToken(token));
    if (!link) return null;
    // The link lands on the profile of the account that made its journal, which shows it.
    const maker = accountOfOwnJournal(link.journal_id);
    const owner = maker && (await this.deps.users.getUser(maker));
    if (!owner) return null;
    if (!(await this.deps.repo.recordVisit(link.id, this.now().toISOString()))) return null;
    return { username: owner.username };
  }

  /**
   * The journals these tokens (from a browser's cookie) still unlock. Checked on every request, so
   * a revoked link or a deleted journal grants nothing from the next request on.
   */
  async grantedJournals(tokens: readonly string[]): Promise<string[]> {
    const hashes = tokens.filter((t) => SHARE_TOKEN_PATTERN.test(t)).map(hashToken);
    const links = await this.deps.repo.findByTokenHashes(hashes);
    if (links.length === 0) return [];
    const now = this.now();
    await this.deps.repo.touch(
      links.map((link) => link.id),
      now.toISOString(),
      new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString(),
    );
    return [...new Set(links.map((link) => link.journal_id))];
  }
}
