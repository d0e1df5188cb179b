import { can, membershipOf } from "../../shared/authorization";
import { formatMessage } from "../../shared/i18n/format";
import type { Language } from "../../shared/i18n/languages";
import { INVITATION_DAYS, MEMBERS_PER_JOURNAL } from "../../shared/journals";
import type {
  Invitation,
  Journal,
  JournalUpdateBody,
  Member,
  MemberCreateBody,
  MemberUpdateBody,
} from "../../shared/schemas";
import type { Identity } from "../auth/session.service";
import type { Executor, Transactions } from "../db/transactions";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { hashToken, newId, newSecretToken } from "../ids";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import { type JournalsRepo, type MemberRow, ownJournalId } from "./journals.repo";

const DAY_MS = 24 * 60 * 60 * 1000;

/** An organizer acting for one of their journals, as `organizerOf` checked. */
export interface JournalOrganizer {
  userId: string;
  journalId: string;
  /** Their membership there (the storyteller of what they record or restore into it). */
  memberId: string;
}

/**
 * A member who belongs to the journal now: an account, or a storyteller who records by link (added
 * without an address, or invited at one and given a link: the weekly question by mail goes there
 * whether or not they ever join).
 */
const isPresent = (row: MemberRow) =>
  row.user_id !== null || row.invite_token_hash === null || row.recording_token_hash !== null;

function toMember(row: MemberRow, viewerMemberId: string | undefined, organizer: boolean): Member {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    email: organizer ? row.email : null,
    invitationPending: organizer && row.user_id === null && row.invite_token_hash !== null,
    hasAccount: row.user_id !== null,
    isYou: row.id === viewerMemberId,
    ...(organizer ? { hasRecordingLink: row.recording_token_hash !== null } : {}),
  };
}

export interface JournalsServiceDeps {
  repo: JournalsRepo;
  transactions: Transactions;
  mailer: Mailer;
  now?: () => Date;
}

/**
 * A family's journal and its members (ADR 0057): who belongs, with which role, invitations by
 * mail that work once for INVITATION_DAYS, and the rule that a journal with members always keeps
 * an organizer. Who may do what is asked of the authorization module; a journal the caller does
 * not belong to answers 404 like a missing one.
 */
export class JournalsService {
  private readonly now: () => Date;

  constructor(private readonly deps: JournalsServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** GET /api/journals. */
  async list(identity: Identity): Promise<Journal[]> {
    if (!identity.userId) throw unauthorized();
    return this.deps.repo.journalsOf(identity.userId);
  }

  /** 404 unless the caller belongs to the journal; 403 unless they may look after it. */
  private assertManage(identity: Identity, journalId: string): void {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
    if (!can(identity, "journal.manage", { id: journalId }))
      throw forbidden("journal.not_organizer");
  }

  /**
   * The journal an organizer acts for: `journalId`, or their own when absent. 401 logged out, 404
   * for a journal they do not belong to, 403 for one they belong to but do not organize.
   */
  organizerOf(identity: Identity, journalId?: string): JournalOrganizer {
    if (!identity.userId) throw unauthorized();
    const id = journalId ?? ownJournalId(identity.userId);
    this.assertManage(identity, id);
    const memberId = membershipOf(identity, id)?.memberId as string;
    return { userId: identity.userId, journalId: id, memberId };
  }

  /** A journal's name (the caller has been checked). */
  async nameOf(journalId: string): Promise<string> {
    return (await this.deps.repo.findById(journalId))?.name ?? "";
  }

  /** A journal's language: its book, its backup page (the caller has been checked). */
  async languageOf(journalId: string): Promise<Language> {
    return languageOf((await this.deps.repo.findById(journalId))?.language);
  }

  /** 401 logged out, 404 unless the caller belongs to the journal. */
  assertView(identity: Identity, journalId: string): void {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
  }

  /** PATCH /api/journals/{id}: its name, its language, or both (organizers). */
  async update(
    identity: Identity,
    journalId: string,
    changes: JournalUpdateBody,
  ): Promise<Journal> {
    this.assertManage(identity, journalId);
    const row = await this.deps.repo.update(journalId, changes);
    const membership = membershipOf(identity, journalId);
    if (!row || !membership) throw notFound();
    return {
      id: row.id,
      name: row.name,
      role: membership.role,
      memberId: membership.memberId,
      language: languageOf(row.language),
    };
  }

  /** GET /api/journals/{id}/members: organizers also see emails and pending invitations. */
  async members(identity: Identity, journalId: string): Promise<Member[]> {
    this.assertView(identity, journalId);
    const organizer = can(identity, "journal.manage", { id: journalId });
    const you = identity.memberships?.find((m) => m.journalId === journalId)?.memberId;
    const rows = await this.deps.repo.members(journalId);
    return rows
      .filter((row) => organizer || isPresent(row))
      .map((row) => toMember(row, you, organizer));
  }

  /**
   * POST /api/journals/{id}/members: with an email, an invitation mail whose link (on `base`) works
   * once for INVITATION_DAYS; without, a storyteller who records through their own link.
   */
  async addMember(
    identity: Identity,
    journalId: string,
    body: MemberCreateBody & { email: string | null },
    base: string,
  ): Promise<Member> {
    this.assertManage(identity, journalId);
    if (!body.email && body.role !== "storyteller") {
      throw badRequest("invalid_value", "an email is needed to invite", "body.email");
    }
    const journal = await this.deps.repo.findById(journalId);
    if (!journal) throw notFound();
    const token = body.email ? newSecretToken() : null;
    const row = await this.deps.transactions.run(async (trx) => {
      const members = await this.deps.repo.members(journalId, trx);
      if (members.length >= MEMBERS_PER_JOURNAL) throw conflict("journal.too_many_members");
      const email = body.email?.toLowerCase();
      if (email && members.some((m) => m.email?.toLowerCase() === email)) {
        throw conflict("journal.already_member");
      }
      return this.deps.repo.addMember(
        {
          id: newId(),
          journal_id: journalId,
          user_id: null,
          name: body.name,
          role: body.role,
          email: body.email ?? null,
          invite_token_hash: token ? hashToken(token) : null,
          invite_expires_at: token
            ? new Date(this.now().getTime() + INVITATION_DAYS * DAY_MS).toISOString()
            : null,
          created_at: this.now().toISOString(),
          recording_token_hash: null,
          language: body.language ?? null,
          replies_mailed_until: null,
          replies_mail_stopped_at: null,
          recording_token_sealed: null,
          question_mail_stopped_at: null,
          question_mailed_on: null,
        },
        trx,
      );
    });
    if (token && body.email) {
      const inviter = await this.inviterName(identity, journalId);
      // The language the organizer chose for them, else the journal's.
      const language = languageOf(body.language, journal.language);
      const words = wordsIn(language).INVITATION_MAIL;
      const journalName = mailLine(journal.name);
      await this.deps.mailer.send({
        to: body.email,
        subject: formatMessage(words.subject, { journal: journalName }, language),
        text: [
          formatMessage(words.greeting, { name: mailLine(body.name) }, language),
          "",
          formatMessage(
            words.body,
            { inviter: mailLine(inviter), journal: journalName, role: body.role },
            language,
          ),
          words.action,
          "",
          `${base}/join/${token}`,
        ].join("\n"),
        secret: true,
      });
    }
    return toMember(row, undefined, true);
  }

  private async inviterName(identity: Identity, journalId: string): Promise<string> {
    const memberId = identity.memberships?.find((m) => m.journalId === journalId)?.memberId;
    const row = memberId ? await this.deps.repo.findMember(journalId, memberId) : undefined;
    return row?.name ?? "";
  }

  /** PATCH /api/journals/{id}/members/{memberId}: a journal never loses its last organizer. */
  async changeRole(
    identity: Identity,
    journalId: string,
    memberId: string,
    { role }: MemberUpdateBody,
  ): Promise<Member> {
    this.assertManage(identity, journalId);
    const you = identity.memberships?.find((m) => m.journalId === journalId)?.memberId;
    return this.deps.transactions.run(async (trx) => {
      const members = await this.deps.repo.members(journalId, trx);
      const member = members.find((m) => m.id === memberId);
      if (!member) throw notFound();
      if (member.role === "organizer" && role !== "organizer") {
        assertAnotherOrganizer(members, member);
      }
      await this.deps.repo.setRole(memberId, role, trx);
      return toMember({ ...member, role }, you, true);
    });
  }

  /**
   * DELETE /api/journals/{id}/members/{memberId}: an organizer removes anyone, anyone removes
   * themselves (leaves). Their access ends with the next request; the stories they told stay.
   */
  async removeMember(identity: Identity, journalId: string, memberId: string): Promise<void> {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
    const own = identity.memberships?.find((m) => m.journalId === journalId)?.memberId;
    if (memberId !== own && !can(identity, "journal.manage", { id: journalId })) {
      throw forbidden("journal.not_organizer");
    }
    await this.deps.transactions.run(async (trx) => {
      const members = await this.deps.repo.members(journalId, trx);
      const member = members.find((m) => m.id === memberId);
      if (!member) throw notFound();
      if (member.role === "organizer") assertAnotherOrganizer(members, member);
      await this.deps.repo.removeMember(memberId, trx);
    });
  }

  /** GET /api/invitations/{token}: what the join page shows. */
  async invitation(token: string): Promise<Invitation> {
    const row = await this.deps.repo.findInvitation(hashToken(token), this.now().toISOString());
    if (!row) throw notFound("invitation.invalid");
    return { journalName: row.journal_name, name: row.name, role: row.role };
  }

  /** POST /api/invitations/{token}: the logged-in account joins; the link then works no more. */
  async join(identity: Identity, token: string): Promise<{ journalId: string }> {
    if (!identity.userId) throw unauthorized();
    const userId = identity.userId;
    const tokenHash = hashToken(token);
    const now = this.now().toISOString();
    const row = await this.deps.repo.findInvitation(tokenHash, now);
    if (!row) throw notFound("invitation.invalid");
    await this.deps.transactions.run(async (trx) => {
      const existing = await this.deps.repo.findMembershipOf(row.journal_id, userId, trx);
      if (existing) {
        // Already in the journal: the invitation is used up, the membership stays as it is.
        await this.deps.repo.removeMember(row.id, trx);
        return;
      }
      if (!(await this.deps.repo.acceptInvitation(row.id, tokenHash, userId, now, trx))) {
        throw notFound("invitation.invalid");
      }
    });
    return { journalId: row.journal_id };
  }

  /**
   * Before an account is deleted: 409 while it is the last organizer of a journal others belong
   * to; else the journals it leaves behind empty, for the caller to delete with it.
   */
  async journalsEndingWith(userId: string, trx: Executor): Promise<string[]> {
    const ending: string[] = [];
    for (const membership of await this.deps.repo.membershipsOf(userId, trx)) {
      const members = await this.deps.repo.members(membership.journalId, trx);
      const others = members.filter((m) => m.user_id !== userId && isPresent(m));
      if (others.length === 0) ending.push(membership.journalId);
      else if (membership.role === "organizer") {
        const self = members.find((m) => m.user_id === userId);
        if (self) assertAnotherOrganizer(members, self);
      }
    }
    return ending;
  }

  /** Deletes journals with the account that leaves them empty (its memories already deleted). */
  deleteJournals(ids: readonly string[], trx: Executor): Promise<void> {
    return this.deps.repo.deleteJournals(ids, trx);
  }

  /** What a page of memories shows of its storytellers: their names by member id. */
  storytellerNames(memberIds: readonly string[]): Promise<Map<string, string>> {
    return this.deps.repo.names(memberIds);
  }
}

/** 409 when `member` is the journal's only organizer and others belong to it. */
function assertAnotherOrganizer(members: readonly MemberRow[], member: MemberRow): void {
  const otherOrganizers = members.filter(
    (m) => m.id !== member.id && m.role === "organizer" && m.user_id !== null,
  );
  const others = members.filter((m) => m.id !== member.id && isPresent(m));
  if (otherOrganizers.length === 0 && (others.length > 0 || member.user_id !== null)) {
    throw conflict("journal.last_organizer");
  }
}
