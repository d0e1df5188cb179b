import type { Language } from "../../shared/i18n/languages";
import { isDeleteConfirmed } from "../../shared/rules";
import type { User } from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import type { AuthService } from "../auth/auth.service";
import type { Transactions } from "../db/transactions";
import { badRequest, conflict, unauthorized } from "../http-errors";
import type { JournalsService } from "../journals/journals.service";
import type { MemoriesService } from "../memories/memories.service";
import { EmailTakenError } from "./users.repo";
import type { UsersService } from "./users.service";

export interface AccountServiceDeps {
  users: UsersService;
  auth: AuthService;
  memories: MemoriesService;
  journals: Pick<JournalsService, "journalsEndingWith" | "deleteJournals">;
  audio: AudioService;
  transactions: Transactions;
}

/**
 * The account page (PRODUCT.md): display name, email, password, and deleting the account with
 * everything in it. Each feature deletes its own rows through its service; this only orders them.
 */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  /**
   * Sets the display name and/or email. A new email needs the current password (400 when wrong,
   * nothing changes; ADR 0038): a stolen session cannot point the account's reset mail elsewhere.
   * 409 when another account uses the email.
   */
  async update(
    userId: string,
    changes: {
      displayName?: string | null;
      email?: string | null;
      language?: Language | null;
      currentPassword?: string;
    },
  ): Promise<User> {
    const { currentPassword, ...fields } = changes;
    if (fields.email !== undefined) {
      await this.deps.auth.verifyCurrentPassword(userId, currentPassword ?? "");
    }
    let user: User | null;
    try {
      user = await this.deps.users.updateAccount(userId, fields);
    } catch (error) {
      if (error instanceof EmailTakenError) throw conflict("auth.email_taken");
      throw error;
    }
    if (!user) throw unauthorized();
    return user;
  }

  /** Returns the fresh session that replaces every earlier one (see AuthService.changePassword). */
  changePassword(
    userId: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    return this.deps.auth.changePassword(userId, currentPassword, newPassword);
  }

  /**
   * Deletes the account once `confirm` is the typed word ('delete', any case) and the current
   * password is right (400 otherwise, and nothing changes): the memories it told, its journals
   * no one else belongs to (409 while it is the last organizer of one others do, and nothing
   * changes), the comments on them, every recording of both, its uploads
   * that belong to nothing yet, its sessions and reset links, and the user (the username becomes
   * free again: ADR 0014). Rows go in one transaction; files after the commit, so a crash in
   * between leaves orphan files at worst, never a row pointing at missing audio. Spoken comments
   * this user left on other people's memories stay: they belong to those memories.
   */
  async deleteAccount(userId: string, confirm: string, currentPassword: string): Promise<void> {
    if (!isDeleteConfirmed(confirm)) {
      throw badRequest("account.invalid_confirmation", undefined, "body.confirm");
    }
    await this.deps.auth.verifyCurrentPassword(userId, currentPassword);
    const { users, auth, memories, journals, audio, transactions } = this.deps;
    // Retried when PostgreSQL picks it as a deadlock victim (a memory being made from an upload
    // at the same moment locks the upload, then the user; this locks the user, then the uploads).
    const { storageKeys, photoKeys } = await transactions.runRetrying(async (trx) => {
      // First, so nothing new (a memory, an upload, a session) can be added for this user meanwhile.
      if (!(await users.lockForDeletion(userId, trx))) throw unauthorized();
      // 409 while it is the last organizer of a journal others belong to: nothing is deleted.
      const ending = await journals.journalsEndingWith(userId, trx);
      const { audioIds, photoKeys } = await memories.deleteAllOfUser(userId, ending, trx);
      await journals.deleteJournals(ending, trx);
      const keys = await audio.deleteRows(audioIds, trx);
      keys.push(...(await audio.deleteUnattachedOf(userId, trx)));
      await auth.endAllAccess(userId, trx);
      if (!(await users.deleteUser(userId, trx))) throw unauthorized();
      return { storageKeys: keys, photoKeys };
    });
    await audio.removeFiles(storageKeys);
    await memories.removePhotoFiles(photoKeys);
  }
}
