import { MESSAGES } from "../../shared/messages";
import { isDeleteConfirmed } from "../../shared/rules";
import type { User } from "../../shared/schemas";
import type { AudioService } from "../audio/audio.service";
import type { AuthService } from "../auth/auth.service";
import type { Transactions } from "../db/transactions";
import { badRequest, unauthorized } from "../http-errors";
import type { MemoriesService } from "../memories/memories.service";
import type { UsersService } from "./users.service";

export interface AccountServiceDeps {
  users: UsersService;
  auth: AuthService;
  memories: MemoriesService;
  audio: AudioService;
  transactions: Transactions;
}

/**
 * The account page (PRODUCT.md): display name, email, password, and deleting the account with
 * everything in it. Each feature deletes its own rows through its service; this only orders them.
 */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  async update(
    userId: string,
    changes: { displayName?: string | null; email?: string | null },
  ): Promise<User> {
    const user = await this.deps.users.updateAccount(userId, changes);
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
   * Deletes the account once `confirm` is the typed word ('delete', any case; 400 otherwise, and
   * nothing changes): its memories, the comments on them, every recording of both, its uploads
   * that belong to nothing yet, its sessions and reset links, and the user (the username becomes
   * free again: ADR 0014). Rows go in one transaction; files after the commit, so a crash in
   * between leaves orphan files at worst, never a row pointing at missing audio. Spoken comments
   * this user left on other people's memories stay: they belong to those memories.
   */
  async deleteAccount(userId: string, confirm: string): Promise<void> {
    if (!isDeleteConfirmed(confirm)) {
      throw badRequest(`confirm: ${MESSAGES.invalidConfirmationDescription}`);
    }
    const { users, auth, memories, audio, transactions } = this.deps;
    // Retried when PostgreSQL picks it as a deadlock victim (a memory being made from an upload
    // at the same moment locks the upload, then the user; this locks the user, then the uploads).
    const storageKeys = await transactions.runRetrying(async (trx) => {
      // First, so nothing new (a memory, an upload, a session) can be added for this user meanwhile.
      if (!(await users.lockForDeletion(userId, trx))) throw unauthorized();
      const audioIds = await memories.deleteAllOfUser(userId, trx);
      const keys = await audio.deleteRows(audioIds, trx);
      keys.push(...(await audio.deleteUnattachedOf(userId, trx)));
      await auth.endAllAccess(userId, trx);
      if (!(await users.deleteUser(userId, trx))) throw unauthorized();
      return keys;
    });
    await audio.removeFiles(storageKeys);
  }
}
