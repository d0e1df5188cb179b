import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type Actor, can } from "../../shared/authorization";
import { formatMessage } from "../../shared/i18n/format";
import type { Language } from "../../shared/i18n/languages";
import type { NewReplies } from "../../shared/schemas";
import type { Identity } from "../auth/session.service";
import type { Executor } from "../db/transactions";
import { forbidden, notFound, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import type { JobKind } from "../jobs/job-kinds";
import type { JobsRepo } from "../jobs/jobs.repo";
import type { JournalsRepo } from "../journals/journals.repo";
import { recordingLinkUrl } from "../journals/recording-links.service";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import type { MemoriesRepo } from "../memories/memories.repo";
import type { MemoriesService } from "../memories/memories.service";
import type { SealedBox } from "../secrets/sealed-box";
import { cachedSecret, type ServerSecretsRepo } from "../secrets/server-secrets.repo";
import type { UsersService } from "../users/users.service";
import type { NewReply, RepliesRepo } from "./comments.repo";

export const STORYTELLER_REPLIES_JOB = "storyteller-replies" satisfies JobKind;
const SECRET_NAME = "replies-unsubscribe";

export interface RepliesDeps {
  repo: RepliesRepo;
  memories: Pick<MemoriesRepo, "toldBy">;
  visible: Pick<MemoriesService, "getVisibleRow">;
  journals: Pick<JournalsRepo, "findMemberById" | "markRepliesMailed" | "stopRepliesMail">;
  users: Pick<UsersService, "getUser">;
  jobs: Pick<JobsRepo, "enqueue">;
  mailer: Mailer;
  secrets: Pick<ServerSecretsRepo, "getOrCreate">;
  /** Opens a storyteller's sealed recording link, for the mail of one without an account. */
  recordingLinks: Pick<SealedBox, "unseal">;
  /** The address mails' links are built on. */
  appUrl: () => string;
  /** How long a replies mail waits for the replies after the first (RELATIVE_DIGEST_MINUTES). */
  digestMinutes: number;
  log: Pick<FastifyBaseLogger, "info">;
  now?: () => Date;
}

/**
 * Replies reach the storyteller (ADR 0063): a reply to a story is new to the member who told it
 * until they open that story's replies (its page, or their recording link's page), and it is
 * mailed to them in a delayed, de-duplicated job per storyteller, with a one-click unsubscribe.
 * The rules decide who hears of a memory's replies (`memory.replies`).
 */
export class RepliesService {
  private readonly now: () => Date;
  private readonly key: () => Promise<Buffer>;

  constructor(private readonly deps: RepliesDeps) {
    this.now = deps.now ?? (() => new Date());
    this.key = cachedSecret(deps.secrets, SECRET_NAME);
  }

  /**
   * A reply was made, in its transaction: unless its storyteller made it, their mail goes out
   * once RELATIVE_DIGEST_MINUTES have passed, and replies made meanwhile join it.
   */
  async replied(
    memory: { storyteller_id: string | null },
    replierMemberId: string | null,
    ex?: Executor,
  ): Promise<void> {
    if (!memory.storyteller_id || memory.storyteller_id === replierMemberId) return;
    const runAfter = new Date(this.now().getTime() + this.deps.digestMinutes * 60_000);
    await this.deps.jobs.enqueue(
      { kind: STORYTELLER_REPLIES_JOB, targetId: memory.storyteller_id, runAfter, join: true },
      ex,
    );
  }

  /** The stories of `memberId` whose replies `actor` hears of (the rules decide, per story). */
  private async storiesHeardBy(actor: Actor, memberId: string) {
    const rows = await this.deps.memories.toldBy(memberId);
    return rows.filter((row) =>
      can(actor, "memory.replies", {
        user_id: null,
        status: "saved",
        journal_id: row.journal_id,
        storyteller_id: row.storyteller_id,
      }),
    );
  }

  /** How many new replies each story has, for a storyteller (as a member or their link). */
  async counts(actor: Actor, memberId: string): Promise<Map<string, number>> {
    const stories = await this.storiesHeardBy(actor, memberId);
    const replies = await this.deps.repo.newReplies(
      stories.map((row) => row.id),
      memberId,
    );
    const counts = new Map<string, number>();
    for (const reply of replies) counts.set(reply.memoryId, (counts.get(reply.memoryId) ?? 0) + 1);
    return counts;
  }

  /** GET /api/journals/{id}/new-replies: the caller's stories in that journal with new replies. */
  async newInJournal(identity: Identity, journalId: string): Promise<NewReplies> {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
    const member = identity.memberships?.find((m) => m.journalId === journalId);
    if (!member) throw notFound();
    const counts = await this.counts(identity, member.memberId);
    return { items: [...counts].map(([memoryId, count]) => ({ memoryId, count })) };
  }

  /**
   * The storyteller opened a story's replies (its page, or their link's page): those made until
   * now are heard. 404 when they may not see it, 403 when it is not theirs.
   */
  async markSeen(actor: Identity, memoryId: string): Promise<void> {
    const row = await this.deps.visible.getVisibleRow(memoryId, actor);
    if (!can(actor, "memory.replies", row)) throw forbidden("replies.not_storyteller");
    await this.deps.repo.markSeen(memoryId, this.now().toISOString());
  }

  // ---- The mail ---------------------------------------------------------------------------

  /**
   * The job: mails the storyteller the replies to their stories they have not heard and no mail
   * told of. Nothing for a member removed, unsubscribed, or without an address.
   */
  async send(memberId: string): Promise<void> {
    const member = await this.deps.journals.findMemberById(memberId);
    if (!member || member.replies_mail_stopped_at) return;
    const account = member.user_id ? await this.deps.users.getUser(member.user_id) : null;
    const to = account?.email ?? member.email;
    if (!to) return;
    const language = languageOf(account?.language, member.language, member.journal_language);
    const words = wordsIn(language);
    const mail = words.REPLIES_MAIL;
    const actor: Actor = {
      userId: null,
      recordingFor: { journalId: member.journal_id, memberId, role: member.role },
    };
    const stories = await this.storiesHeardBy(actor, memberId);
    const replies = await this.deps.repo.newReplies(
      stories.map((row) => row.id),
      memberId,
      member.replies_mailed_until,
    );
    const last = replies.at(-1);
    if (!last) return;
    const titles = new Map(stories.map((row) => [row.id, row.title]));
    const lineOf = (reply: NewReply) =>
      formatMessage(
        mail.answered,
        {
          name: mailLine(reply.commenterName),
          title: mailLine(titles.get(reply.memoryId) ?? "") || words.MESSAGES.untitledMemory,
        },
        language,
      );
    const base = this.deps.appUrl().replace(/\/+$/, "");
    const unsubscribe = await this.unsubscribeUrl(memberId, base);
    // Their stories' pages for an account; a storyteller without one hears them on their link
    // (its sealed copy; a link made before links were sealed is only named).
    const memoryIds = [...new Set(replies.map((reply) => reply.memoryId))];
    const token =
      !account && member.recording_token_sealed
        ? await this.deps.recordingLinks.unseal(member.recording_token_sealed).catch(() => null)
        : null;
    const listen = account
      ? [mail.listenHere, ...memoryIds.map((id) => `${base}/memory/${id}`)]
      : token
        ? [mail.listenOnLink, recordingLinkUrl(base, token)]
        : [mail.listenOnLink];
    await this.deps.mailer.send({
      to,
      subject:
        replies.length === 1
          ? lineOf(last)
          : formatMessage(mail.subjectMany, { count: replies.length }, language),
      text: [
        formatMessage(mail.greeting, { name: mailLine(member.name) }, language),
        "",
        ...replies.map((reply) => `- ${lineOf(reply)}`),
        "",
        ...listen,
        "",
        "--",
        formatMessage(mail.why, { journal: mailLine(member.journal_name) }, language),
        `${mail.stop} ${unsubscribe}`,
      ].join("\n"),
      secret: true,
      headers: {
        "List-Unsubscribe": `<${unsubscribe}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
    await this.deps.journals.markRepliesMailed(
      memberId,
      member.replies_mailed_until,
      last.createdAt,
    );
    this.deps.log.info(
      { replies: { member: memberId, count: replies.length } },
      "replies mail sent",
    );
  }

  /** A failed mail after its last retry: tried again a window later. */
  async requeue(memberId: string): Promise<void> {
    await this.replied({ storyteller_id: memberId }, null);
  }

  private async sign(memberId: string): Promise<string> {
    return createHmac("sha256", await this.key())
      .update(`replies-unsubscribe:${memberId}`)
      .digest("base64url");
  }

  /** The one-click address (RFC 8058), also the mail's visible link (its GET asks first). */
  async unsubscribeUrl(memberId: string, base: string): Promise<string> {
    const query = new URLSearchParams({ m: memberId, t: await this.sign(memberId) });
    return `${base.replace(/\/+$/, "")}/api/replies/unsubscribe?${query}`;
  }

  /** Whether the signed parameters are good and the member still belongs to the journal. */
  async checkUnsubscribe(memberId: string, token: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(memberId));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    return (await this.deps.journals.findMemberById(memberId)) !== undefined;
  }

  /**
   * The language of the storyteller a signed link was mailed to, for the page it opens (as their
   * mails: their account's, else their own, else the journal's); English for a wrong signature.
   */
  async languageOfLink(memberId: string, token: string): Promise<Language> {
    const expected = Buffer.from(await this.sign(memberId));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "en";
    const member = await this.deps.journals.findMemberById(memberId);
    if (!member) return "en";
    const account = member.user_id ? await this.deps.users.getUser(member.user_id) : null;
    return languageOf(account?.language, member.language, member.journal_language);
  }

  /** Stops the member's replies mails; false for a bad signature or a removed member. */
  async unsubscribe(memberId: string, token: string): Promise<boolean> {
    if (!(await this.checkUnsubscribe(memberId, token))) return false;
    return this.deps.journals.stopRepliesMail(memberId, this.now().toISOString());
  }
}
