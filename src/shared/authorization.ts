/**
 * Who may do what: the one place the product decides it (ADR 0052). The server asks `can` on every
 * route that reads or changes a family's things; the client asks the same rules to decide what to
 * show. A rule reads facts it is given (ids, flags, states), never the database, so both sides get
 * the same answer from the same facts.
 */

import type { JournalRole } from "./journals";

/** A journal the actor belongs to, with their role in it and their member id there. */
export interface Membership {
  readonly journalId: string;
  readonly memberId: string;
  readonly role: JournalRole;
}

/** Who asks. */
export interface Actor {
  /** The logged-in account, or null. */
  readonly userId: string | null;
  /** The hash of an anonymous browser's visitor cookie (server only), or null. */
  readonly visitorHash?: string | null;
  /** The journals the account belongs to, read afresh on every request (a removal counts at once). */
  readonly memberships?: readonly Membership[];
  /** Journals whose saved memories this browser may see through live share links it opened. */
  readonly sharedJournalIds?: readonly string[];
  /**
   * The member a personal recording link speaks for (server only): set by the link's own routes
   * alone, never from a cookie, so the link opens nothing else (ADR 0060).
   */
  readonly recordingFor?: Membership;
}

/** What the rules read of a memory (a row or its JSON). */
export interface MemoryFacts {
  /** The account that recorded it; for an unclaimed recording, null. */
  readonly user_id: string | null;
  readonly anon_owner_hash?: string | null;
  readonly status: string;
  /** Its journal; null while unclaimed. */
  readonly journal_id: string | null;
  /** The member who told it; null while unclaimed. */
  readonly storyteller_id: string | null;
}

/** What the rules read of a journal: public when the account that made it made its profile public. */
export interface JournalFacts {
  readonly id: string;
  readonly isPublic: boolean;
}

/** What the rules read of a profile (an account) and its own journal. */
export interface ProfileFacts {
  readonly id: string;
  readonly isPublic: boolean;
  /** The journal made with the account, which its profile shows; null once none is left. */
  readonly journalId: string | null;
}

/** What the rules read of an upload: the account or anonymous browser that sent it. */
export interface UploadFacts {
  readonly owner_user_id: string | null;
  readonly owner_anon_hash: string | null;
}

/** Each action and the facts its rule reads. */
interface Resources {
  /** See a profile: its journal's saved memories. */
  "profile.view": ProfileFacts;
  /** Manage one's own account: its settings, reminders and profile. */
  "profile.manage": Pick<ProfileFacts, "id">;
  /** Open a journal: its memories in every state, its members, search. */
  "journal.view": Pick<JournalFacts, "id">;
  /** Record a memory in a journal. */
  "journal.record": Pick<JournalFacts, "id">;
  /** Ask a storyteller of the journal a question: organizers and relatives. */
  "journal.ask": Pick<JournalFacts, "id">;
  /**
   * Look after a journal: its members, invitations and name, its share links and relatives'
   * addresses, its book, backup and restore.
   */
  "journal.manage": Pick<JournalFacts, "id">;
  /** See a memory and so hear its audio, read its transcript, see its photos and comments. */
  "memory.view": { readonly memory: MemoryFacts; readonly journal: JournalFacts | undefined };
  /**
   * Change a memory: its words, tags, photos and transcript, regenerate it, remove its comments:
   * an organizer of its journal, or the storyteller who told it.
   */
  "memory.edit": MemoryFacts;
  /** Resume a failed memory, or be answered it again when its recording is sent twice. */
  "memory.retry": MemoryFacts;
  /** Take an unclaimed recording into the logged-in account: the browser that recorded it. */
  "memory.claim": MemoryFacts;
  /** Delete a memory: who may edit it, or the browser that recorded it before any account claimed it. */
  "memory.delete": MemoryFacts;
  /**
   * Add a photo to a memory: who may edit it, or a recording link for the stories its member
   * told (the photo a story was started from).
   */
  "memory.addPhoto": MemoryFacts;
  /**
   * Hear of a memory's replies as their addressee (the "new replies" mark, marking them heard):
   * the member who told it, logged in or through their recording link.
   */
  "memory.replies": MemoryFacts;
  /** Use an upload for a new memory or comment. */
  "upload.use": UploadFacts;
  /**
   * Record through a personal recording link: in the link's journal, as its member, while that
   * member may tell stories there.
   */
  "link.record": Pick<JournalFacts, "id">;
  /**
   * Choose the language a member's recording link page speaks: through that member's own link
   * only (a storyteller changes their own page, nobody else's).
   */
  "member.language": { readonly journalId: string; readonly memberId: string };
}

export type Action = keyof Resources;
export type Resource<A extends Action> = Resources[A];

const isAccount = (actor: Actor, id: string | null): boolean =>
  actor.userId !== null && id === actor.userId;

const isBrowser = (actor: Actor, hash: string | null | undefined): boolean =>
  actor.visitorHash != null && hash === actor.visitorHash;

/** The actor's membership of a journal, if any. */
export function membershipOf(actor: Actor, journalId: string | null): Membership | undefined {
  if (journalId === null || actor.userId === null) return undefined;
  return actor.memberships?.find((membership) => membership.journalId === journalId);
}

const hasRole = (actor: Actor, journalId: string | null, ...roles: JournalRole[]): boolean => {
  const membership = membershipOf(actor, journalId);
  return membership !== undefined && roles.includes(membership.role);
};

const editable = (actor: Actor, memory: MemoryFacts): boolean => {
  if (hasRole(actor, memory.journal_id, "organizer")) return true;
  const membership = membershipOf(actor, memory.journal_id);
  return (
    membership?.role === "storyteller" &&
    memory.storyteller_id !== null &&
    membership.memberId === memory.storyteller_id
  );
};

/** The roles that tell stories: who may record in a journal. */
const TELLER_ROLES: readonly JournalRole[] = ["organizer", "storyteller"];

/** A story told by the member a recording link speaks for, in its journal (its own stories). */
const toldThroughLink = (actor: Actor, memory: MemoryFacts): boolean =>
  actor.recordingFor !== undefined &&
  memory.journal_id === actor.recordingFor.journalId &&
  memory.storyteller_id === actor.recordingFor.memberId;

/** An unclaimed recording, for the browser that made it. */
const recordedHere = (actor: Actor, memory: MemoryFacts): boolean =>
  memory.journal_id === null && isBrowser(actor, memory.anon_owner_hash);

const RULES: { readonly [A in Action]: (actor: Actor, resource: Resources[A]) => boolean } = {
  "profile.view": (actor, profile) =>
    profile.isPublic ||
    isAccount(actor, profile.id) ||
    (profile.journalId !== null && (actor.sharedJournalIds?.includes(profile.journalId) ?? false)),
  "profile.manage": (actor, profile) => isAccount(actor, profile.id),
  "journal.view": (actor, journal) => membershipOf(actor, journal.id) !== undefined,
  "journal.record": (actor, journal) => hasRole(actor, journal.id, ...TELLER_ROLES),
  "journal.ask": (actor, journal) => hasRole(actor, journal.id, "organizer", "relative"),
  "link.record": (actor, journal) =>
    actor.recordingFor?.journalId === journal.id && TELLER_ROLES.includes(actor.recordingFor.role),
  "journal.manage": (actor, journal) => hasRole(actor, journal.id, "organizer"),
  "member.language": (actor, member) =>
    actor.recordingFor?.journalId === member.journalId &&
    actor.recordingFor.memberId === member.memberId &&
    TELLER_ROLES.includes(actor.recordingFor.role),
  "memory.view": (actor, { memory, journal }) => {
    // An anonymous recording is seen only by the browser that made it, until it is claimed.
    if (memory.journal_id === null) return recordedHere(actor, memory);
    if (membershipOf(actor, memory.journal_id)) return true;
    if (toldThroughLink(actor, memory)) return true;
    return (
      memory.status === "saved" &&
      journal !== undefined &&
      (journal.isPublic || (actor.sharedJournalIds?.includes(journal.id) ?? false))
    );
  },
  "memory.edit": editable,
  "memory.retry": (actor, memory) => editable(actor, memory) || recordedHere(actor, memory),
  "memory.addPhoto": (actor, memory) =>
    editable(actor, memory) ||
    (toldThroughLink(actor, memory) &&
      TELLER_ROLES.includes((actor.recordingFor as Membership).role)),
  "memory.replies": (actor, memory) =>
    toldThroughLink(actor, memory) ||
    (memory.storyteller_id !== null &&
      membershipOf(actor, memory.journal_id)?.memberId === memory.storyteller_id),
  "memory.claim": (actor, memory) =>
    actor.userId !== null && isBrowser(actor, memory.anon_owner_hash),
  "memory.delete": (actor, memory) => editable(actor, memory) || recordedHere(actor, memory),
  "upload.use": (actor, upload) =>
    isAccount(actor, upload.owner_user_id) || isBrowser(actor, upload.owner_anon_hash),
};

/** Whether `actor` may do `action` to the thing described by `resource`. */
export function can<A extends Action>(actor: Actor, action: A, resource: Resources[A]): boolean {
  return RULES[action](actor, resource);
}
