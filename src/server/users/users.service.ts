import { can, type ProfileFacts } from "../../shared/authorization";
import { isLanguage, type Language } from "../../shared/i18n/languages";
import type { PublicProfile, SharedWithMe, User } from "../../shared/schemas";
import type { Viewer } from "../auth/session.service";
import type { Executor } from "../db/transactions";
import { accountOfOwnJournal, ownJournalId } from "../journals/journals.repo";
import type { UserRow, UsersRepo } from "./users.repo";

/** The API shape of the logged-in user (includes the email). */
export function toUser(row: UserRow): User {
  return {
    ...toPublicProfile(row),
    email: row.email,
    language: isLanguage(row.language) ? row.language : null,
  };
}

/** The API shape anyone may see of a visible profile (no email). */
export function toPublicProfile(row: UserRow): PublicProfile {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    isPublic: Number(row.is_public) === 1,
  };
}

/** What the authorization rules read of an account. */
export function profileFacts(row: UserRow): ProfileFacts {
  return { id: row.id, isPublic: Number(row.is_public) === 1, journalId: ownJournalId(row.id) };
}

function visible(row: UserRow | undefined, viewer: Viewer): row is UserRow {
  return row !== undefined && can(viewer, "profile.view", profileFacts(row));
}

/**
 * Profiles and who may see them. A private profile is visible only to its owner; to everyone
 * else it looks exactly like a username that does not exist.
 */
export class UsersService {
  constructor(private readonly users: UsersRepo) {}

  /** The profile behind `username` (case-insensitive) if `viewer` may see it, else null. */
  async getVisibleProfile(username: string, viewer: Viewer): Promise<PublicProfile | null> {
    const row = await this.users.findByUsername(username);
    if (!visible(row, viewer)) return null;
    const sharedWithYou =
      !can(viewer, "profile.manage", row) &&
      (viewer.sharedJournalIds?.includes(ownJournalId(row.id)) ?? false);
    return { ...toPublicProfile(row), sharedWithYou };
  }

  /** The owners whose memories `viewer`'s share links open, themselves left out. */
  async sharedWith(viewer: Viewer): Promise<SharedWithMe> {
    const ids = (viewer.sharedJournalIds ?? [])
      .map(accountOfOwnJournal)
      .filter((id): id is string => id !== undefined && !can(viewer, "profile.manage", { id }));
    const rows = await Promise.all(ids.map((id) => this.users.findById(id)));
    return {
      owners: rows
        .filter((row): row is UserRow => row !== undefined)
        .map((row) => ({ username: row.username, displayName: row.display_name })),
    };
  }

  /** Whether the user `userId` exists and `viewer` may see their profile. */
  async isVisibleTo(userId: string, viewer: Viewer): Promise<boolean> {
    return visible(await this.users.findById(userId), viewer);
  }

  /** Every account with when it was made, by username (for the operator, never the API). */
  async listAccounts(): Promise<(User & { createdAt: string })[]> {
    return (await this.users.listAll()).map((row) => ({
      ...toUser(row),
      createdAt: row.created_at,
    }));
  }

  async getUser(userId: string): Promise<User | null> {
    const row = await this.users.findById(userId);
    return row ? toUser(row) : null;
  }

  /** The account page: sets the display name and/or email (undefined leaves one as it is). */
  async updateAccount(
    userId: string,
    changes: { displayName?: string | null; email?: string | null; language?: Language | null },
  ): Promise<User | null> {
    const row = await this.users.updateProfile(userId, changes);
    return row ? toUser(row) : null;
  }

  /** Part of deleting an account: locks the user until `trx` ends; false when it is gone. */
  lockForDeletion(userId: string, trx: Executor): Promise<boolean> {
    return this.users.lockForDelete(userId, trx);
  }

  /** The last step of deleting an account: the user row itself (the username becomes free). */
  deleteUser(userId: string, trx: Executor): Promise<boolean> {
    return this.users.delete(userId, trx);
  }

  async setVisibility(userId: string, isPublic: boolean): Promise<User | null> {
    const row = await this.users.setPublic(userId, isPublic);
    return row ? toUser(row) : null;
  }
}
