import type { Kysely, Selectable } from "kysely";
import type { Membership } from "../../shared/authorization";
import type { Language } from "../../shared/i18n/languages";
import { defaultJournalName, type JournalRole, ownJournalId } from "../../shared/journals";
import type { Database, JournalMembersTable, JournalsTable } from "../db/schema";
import type { Executor } from "../db/transactions";
import { languageOf } from "../i18n/words";
import { newId, nowIso } from "../ids";

export type JournalRow = Selectable<JournalsTable>;
export type MemberRow = Selectable<JournalMembersTable>;

/** A journal as its member sees it in their list. */
export interface JournalOfMember {
  id: string;
  name: string;
  role: JournalRole;
  memberId: string;
  language: Language;
}

/**
 * The journal made with an account, and the account's membership of it, have ids derived from
 * the account's (migration 0023 made every existing account's this way): no lookup is needed to
 * find them, and they never collide with a random id (22 characters, no prefix).
 */
export { ownJournalId };
export const ownMemberId = (userId: string): string => `m${userId}`;
/** The account whose own journal this is (share links open only their maker's own journal). */
export const accountOfOwnJournal = (journalId: string): string | undefined =>
  journalId.startsWith("j") ? journalId.slice(1) : undefined;

/**
 * Makes an account's own journal, with the account as its organizer, in the account's transaction
 * (UsersRepo.create): every account is a journal of one until it invites its family. The journal
 * speaks the account's language (English when it has none).
 */
export async function createOwnJournal(
  user: { id: string; name: string; createdAt: string; language?: string | null },
  ex: Executor,
): Promise<void> {
  const journalId = ownJournalId(user.id);
  await ex
    .insertInto("journals")
    .values({
      id: journalId,
      name: defaultJournalName(user.name),
      language: languageOf(user.language),
      created_by: user.id,
      created_at: user.createdAt,
      updated_at: user.createdAt,
    })
    .execute();
  await ex
    .insertInto("journal_members")
    .values({
      id: ownMemberId(user.id),
      journal_id: journalId,
      user_id: user.id,
      name: user.name,
      role: "organizer",
      email: null,
      invite_token_hash: null,
      invite_expires_at: null,
      created_at: user.createdAt,
    })
    .execute();
}

/** The only code that reads or writes the journals and journal_members tables (ADR 0057). */
export class JournalsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string, ex: Executor = this.db): Promise<JournalRow | undefined> {
    return ex.selectFrom("journals").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Renames a journal or changes its language (what is given). */
  async update(
    id: string,
    changes: { name?: string | undefined; language?: Language | undefined },
  ): Promise<JournalRow | undefined> {
    return this.db
      .updateTable("journals")
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.language !== undefined ? { language: changes.language } : {}),
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
  }

  /** What the authorization rules read of an account: its memberships (read on every request). */
  async membershipsOf(userId: string, ex: Executor = this.db): Promise<Membership[]> {
    const rows = await ex
      .selectFrom("journal_members")
      .select(["journal_id", "id", "role"])
      .where("user_id", "=", userId)
      .execute();
    return rows.map((row) => ({ journalId: row.journal_id, memberId: row.id, role: row.role }));
  }

  /** The account's journals with its role in each, its own first, then by name. */
  async journalsOf(userId: string): Promise<JournalOfMember[]> {
    const rows = await this.db
      .selectFrom("journal_members")
      .innerJoin("journals", "journals.id", "journal_members.journal_id")
      .select([
        "journals.id",
        "journals.name",
        "journals.created_by",
        "journals.language",
        "journal_members.role",
        "journal_members.id as member_id",
      ])
      .where("journal_members.user_id", "=", userId)
      .execute();
    return rows
      .sort(
        (a, b) =>
          Number(b.created_by === userId) - Number(a.created_by === userId) ||
          a.name.localeCompare(b.name),
      )
      .map((row) => ({
        id: row.id,
        name: row.name,
        role: row.role,
        memberId: row.member_id,
        language: languageOf(row.language),
      }));
  }

  /** A journal's members (pending invitations included), organizers first, then by name. */
  async members(journalId: string, ex: Executor = this.db): Promise<MemberRow[]> {
    const rows = await ex
      .selectFrom("journal_members")
      .selectAll()
      .where("journal_id", "=", journalId)
      .execute();
    const rank = { organizer: 0, storyteller: 1, relative: 2 } as const;
    return rows.sort((a, b) => rank[a.role] - rank[b.role] || a.name.localeCompare(b.name));
  }

  findMember(journalId: string, memberId: string, ex: Executor = this.db) {
    return ex
      .selectFrom("journal_members")
      .selectAll()
      .where("journal_id", "=", journalId)
      .where("id", "=", memberId)
      .executeTakeFirst();
  }

  /** A member by id alone, in whichever journal (a job's target); undefined once removed. */
  findMemberById(memberId: string) {
    return this.db
      .selectFrom("journal_members")
      .innerJoin("journals", "journals.id", "journal_members.journal_id")
      .selectAll("journal_members")
      .select(["journals.name as journal_name", "journals.language as journal_language"])
      .where("journal_members.id", "=", memberId)
      .executeTakeFirst();
  }

  /**
   * The replies mail told of replies up to `until`: moves the member's mark forward from where the
   * sender read it (`from`), so two senders never both move it. False when it had moved.
   */
  async markRepliesMailed(memberId: string, from: string | null, until: string): Promise<boolean> {
    const result = await this.db
      .updateTable("journal_members")
      .set({ replies_mailed_until: until })
      .where("id", "=", memberId)
      .where((eb) =>
        from === null
          ? eb("replies_mailed_until", "is", null)
          : eb("replies_mailed_until", "=", from),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The member's one-click unsubscribe from replies mails (kept once set). */
  async stopRepliesMail(memberId: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable("journal_members")
      .set((eb) => ({
        replies_mail_stopped_at: eb.fn.coalesce("replies_mail_stopped_at", eb.val(at)),
      }))
      .where("id", "=", memberId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The names of these members, by id (a page of memories names its storytellers). */
  async names(memberIds: readonly string[]): Promise<Map<string, string>> {
    if (memberIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("journal_members")
      .select(["id", "name"])
      .where("id", "in", [...new Set(memberIds)])
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async addMember(row: MemberRow, ex: Executor = this.db): Promise<MemberRow> {
    await ex.insertInto("journal_members").values(row).execute();
    return row;
  }

  async setRole(memberId: string, role: JournalRole, ex: Executor = this.db): Promise<void> {
    await ex.updateTable("journal_members").set({ role }).where("id", "=", memberId).execute();
  }

  async removeMember(memberId: string, ex: Executor = this.db): Promise<void> {
    await ex.deleteFrom("journal_members").where("id", "=", memberId).execute();
  }

  /** The pending invitation behind a token's hash, with its journal's name, while it lasts. */
  async findInvitation(tokenHash: string, now: string) {
    return this.db
      .selectFrom("journal_members")
      .innerJoin("journals", "journals.id", "journal_members.journal_id")
      .selectAll("journal_members")
      .select("journals.name as journal_name")
      .where("journal_members.invite_token_hash", "=", tokenHash)
      .where("journal_members.invite_expires_at", ">", now)
      .executeTakeFirst();
  }

  /**
   * Turns a pending invitation into the account's membership, once: false when another request
   * used it first or it ended meanwhile.
   */
  async acceptInvitation(
    memberId: string,
    tokenHash: string,
    userId: string,
    now: string,
    ex: Executor,
  ): Promise<boolean> {
    const result = await ex
      .updateTable("journal_members")
      .set({ user_id: userId, invite_token_hash: null, invite_expires_at: null })
      .where("id", "=", memberId)
      .where("invite_token_hash", "=", tokenHash)
      .where("invite_expires_at", ">", now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The account's membership of a journal, if any. */
  findMembershipOf(journalId: string, userId: string, ex: Executor = this.db) {
    return ex
      .selectFrom("journal_members")
      .selectAll()
      .where("journal_id", "=", journalId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  /**
   * The member of a journal who tells stories under `name` (an organizer or storyteller, the
   * restoring organizer first); a storyteller without an account is added when none does.
   * Restoring a backup keeps each memory's storyteller this way.
   */
  async storytellerNamed(
    journalId: string,
    name: string,
    restorerMemberId: string,
    ex: Executor,
  ): Promise<string> {
    const tellers = await ex
      .selectFrom("journal_members")
      .select("id")
      .where("journal_id", "=", journalId)
      .where("name", "=", name)
      .where("role", "in", ["organizer", "storyteller"])
      .execute();
    const found = tellers.find((m) => m.id === restorerMemberId) ?? tellers[0];
    if (found) return found.id;
    const id = newId();
    await ex
      .insertInto("journal_members")
      .values({
        id,
        journal_id: journalId,
        user_id: null,
        name,
        role: "storyteller",
        email: null,
        invite_token_hash: null,
        invite_expires_at: null,
        created_at: nowIso(),
      })
      .execute();
    return id;
  }

  /**
   * Sets (a token's hash and sealed copy) or ends (null) a member's personal recording link (ADR
   * 0060, 0064): the one before, if any, stops in the same statement.
   */
  async setRecordingLink(
    journalId: string,
    memberId: string,
    token: { hash: string; sealed: string } | null,
  ): Promise<void> {
    await this.db
      .updateTable("journal_members")
      .set({
        recording_token_hash: token?.hash ?? null,
        recording_token_sealed: token?.sealed ?? null,
      })
      .where("journal_id", "=", journalId)
      .where("id", "=", memberId)
      .execute();
  }

  /** The weekly question mail's day, hour and time zone (ADR 0064); null: the journal sends none. */
  async setQuestionMail(
    journalId: string,
    schedule: { weekday: number; hour: number; timeZone: string } | null,
    now: string,
    origin: string | null,
  ): Promise<void> {
    await this.db
      .updateTable("journals")
      .set({
        question_mail_weekday: schedule?.weekday ?? null,
        question_mail_hour: schedule?.hour ?? null,
        question_mail_time_zone: schedule?.timeZone ?? null,
        question_mail_updated_at: now,
        question_mail_origin: origin,
      })
      .where("id", "=", journalId)
      .execute();
  }

  /**
   * Storytellers who may get the weekly question mail: in a journal that sends it, with a link
   * the server can read back, who have not stopped it. Paged by member id.
   */
  mailableStorytellers(afterMemberId: string, limit: number) {
    return this.db
      .selectFrom("journal_members")
      .innerJoin("journals", "journals.id", "journal_members.journal_id")
      .select([
        "journal_members.id",
        "journal_members.journal_id",
        "journal_members.user_id",
        "journal_members.question_mailed_on",
        "journal_members.email",
        "journals.question_mail_weekday",
        "journals.question_mail_hour",
        "journals.question_mail_time_zone",
        "journals.question_mail_updated_at",
      ])
      .where("journal_members.role", "=", "storyteller")
      .where("journal_members.recording_token_sealed", "is not", null)
      .where("journal_members.question_mail_stopped_at", "is", null)
      .where("journals.question_mail_weekday", "is not", null)
      .where((eb) =>
        // An account's address is its own (read by the service); else the one it was invited at.
        eb.or([
          eb("journal_members.email", "is not", null),
          eb("journal_members.user_id", "is not", null),
        ]),
      )
      .where("journal_members.id", ">", afterMemberId)
      .orderBy("journal_members.id")
      .limit(limit)
      .execute();
  }

  /** The language a member reads (their link page, their card); null: the journal's. */
  async setMemberLanguage(memberId: string, language: Language | null): Promise<void> {
    await this.db
      .updateTable("journal_members")
      .set({ language })
      .where("id", "=", memberId)
      .execute();
  }

  /** Stops (a date) or resumes (null) a storyteller's weekly question mails. */
  async setQuestionMailStopped(memberId: string, at: string | null): Promise<void> {
    await this.db
      .updateTable("journal_members")
      .set({ question_mail_stopped_at: at })
      .where("id", "=", memberId)
      .execute();
  }

  /** Remembers the storyteller's local date of the weekly question mail just sent. */
  async setQuestionMailedOn(memberId: string, date: string): Promise<void> {
    await this.db
      .updateTable("journal_members")
      .set({ question_mailed_on: date })
      .where("id", "=", memberId)
      .execute();
  }

  /** The member whose recording link has this token's hash, with their journal's name. */
  findByRecordingLink(tokenHash: string) {
    return this.db
      .selectFrom("journal_members")
      .innerJoin("journals", "journals.id", "journal_members.journal_id")
      .select([
        "journal_members.id",
        "journal_members.journal_id",
        "journal_members.user_id",
        "journal_members.name",
        "journal_members.role",
        "journal_members.email",
        "journal_members.recording_token_sealed",
        "journal_members.question_mail_stopped_at",
        "journal_members.language",
        "journals.name as journal_name",
        "journals.language as journal_language",
      ])
      .where("journal_members.recording_token_hash", "=", tokenHash)
      .executeTakeFirst();
  }

  /** Deletes journals (their memories, members and links go with them by cascade). */
  async deleteJournals(ids: readonly string[], ex: Executor): Promise<void> {
    if (ids.length === 0) return;
    await ex
      .deleteFrom("journals")
      .where("id", "in", [...ids])
      .execute();
  }
}
