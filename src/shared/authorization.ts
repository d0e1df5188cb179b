/**
 * Who may do what: the one place the product decides it (ADR 0052). The server asks `can` on every
 * route that reads or changes a family's things; the client asks the same rules to decide what to
 * show. A rule reads facts it is given (ids, flags, states), never the database, so both sides get
 * the same answer from the same facts.
 */

/** Who asks. */
export interface Actor {
  /** The logged-in account, or null. */
  readonly userId: string | null;
  /** The hash of an anonymous browser's visitor cookie (server only), or null. */
  readonly visitorHash?: string | null;
  /** Owners whose profile this browser may see through live share links it opened (ADR 0019). */
  readonly sharedOwnerIds?: readonly string[];
}

/** What the rules read of a memory (a row or its JSON). */
export interface MemoryFacts {
  readonly user_id: string | null;
  readonly anon_owner_hash?: string | null;
  readonly status: string;
}

/** What the rules read of a profile (an account). */
export interface ProfileFacts {
  readonly id: string;
  readonly isPublic: boolean;
}

/** What the rules read of an upload: the account or anonymous browser that sent it. */
export interface UploadFacts {
  readonly owner_user_id: string | null;
  readonly owner_anon_hash: string | null;
}

/** Each action and the facts its rule reads. */
interface Resources {
  /** See a profile and its saved memories. */
  "profile.view": ProfileFacts;
  /** Manage a profile: its memories' lists in every state, share links, relatives' addresses. */
  "profile.manage": Pick<ProfileFacts, "id">;
  /** See a memory and so hear its audio, read its transcript, see its photos and comments. */
  "memory.view": { readonly memory: MemoryFacts; readonly owner: ProfileFacts | undefined };
  /**
   * Change a memory: its words, tags, photos and transcript, regenerate it, delete it, remove its
   * comments.
   */
  "memory.edit": MemoryFacts;
  /** Resume a failed memory, or be answered it again when its recording is sent twice. */
  "memory.retry": MemoryFacts;
  /** Take an unclaimed recording into the logged-in account: the browser that recorded it. */
  "memory.claim": MemoryFacts;
  /** Delete a memory: its owner, or the browser that recorded it before any account claimed it. */
  "memory.delete": MemoryFacts;
  /** Use an upload for a new memory or comment. */
  "upload.use": UploadFacts;
}

export type Action = keyof Resources;
export type Resource<A extends Action> = Resources[A];

const isAccount = (actor: Actor, id: string | null): boolean =>
  actor.userId !== null && id === actor.userId;

const isBrowser = (actor: Actor, hash: string | null | undefined): boolean =>
  actor.visitorHash != null && hash === actor.visitorHash;

/** The account that owns the memory, or for an unclaimed recording the browser that made it. */
const recordedBy = (actor: Actor, memory: MemoryFacts): boolean =>
  memory.user_id !== null
    ? isAccount(actor, memory.user_id)
    : isBrowser(actor, memory.anon_owner_hash);

const RULES: { readonly [A in Action]: (actor: Actor, resource: Resources[A]) => boolean } = {
  "profile.view": (actor, profile) =>
    profile.isPublic ||
    isAccount(actor, profile.id) ||
    (actor.sharedOwnerIds?.includes(profile.id) ?? false),
  "profile.manage": (actor, profile) => isAccount(actor, profile.id),
  "memory.view": (actor, { memory, owner }) => {
    // An anonymous recording is seen only by the browser that made it, until it is claimed.
    if (memory.user_id === null) return isBrowser(actor, memory.anon_owner_hash);
    if (isAccount(actor, memory.user_id)) return true;
    return memory.status === "saved" && owner !== undefined && can(actor, "profile.view", owner);
  },
  "memory.edit": (actor, memory) => isAccount(actor, memory.user_id),
  "memory.retry": recordedBy,
  "memory.claim": (actor, memory) =>
    actor.userId !== null && isBrowser(actor, memory.anon_owner_hash),
  "memory.delete": recordedBy,
  "upload.use": (actor, upload) =>
    isAccount(actor, upload.owner_user_id) || isBrowser(actor, upload.owner_anon_hash),
};

/** Whether `actor` may do `action` to the thing described by `resource`. */
export function can<A extends Action>(actor: Actor, action: A, resource: Resources[A]): boolean {
  return RULES[action](actor, resource);
}
