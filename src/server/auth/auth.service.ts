import type { FastifyBaseLogger } from "fastify";
import { formatMessage } from "../../shared/i18n/format";
import type { RegisterBody, User } from "../../shared/schemas";
import type { Executor, Transactions } from "../db/transactions";
import { badRequest, conflict, HttpError, unauthorized } from "../http-errors";
import { languageOf, wordsIn } from "../i18n/words";
import { hashToken, newSecretToken } from "../ids";
import { mailLine } from "../mail/mail-text";
import type { Mailer } from "../mail/mailer";
import { EmailTakenError, UsernameTakenError, type UsersRepo } from "../users/users.repo";
import { toUser } from "../users/users.service";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "./password";
import type { ResetTokensRepo } from "./reset-tokens.repo";
import type { SessionService } from "./session.service";

/** A reset link is valid for one hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AuthServiceDeps {
  users: UsersRepo;
  resetTokens: ResetTokensRepo;
  transactions: Transactions;
  sessions: SessionService;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, "info" | "error">;
}

type RegisterInput = Required<Pick<RegisterBody, "username" | "password">> & {
  email: string | null;
  displayName: string | null;
  isPublic: boolean;
  language?: RegisterBody["language"];
};

/** Registration, login, logout and password reset. Routes handle cookies; this handles rules. */
export class AuthService {
  /** Mail still being sent after its request was answered; awaited on shutdown. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: AuthServiceDeps) {}

  /** Creates the account and a fresh session (never a promoted earlier one). */
  async register(input: RegisterInput): Promise<{ user: User; token: string; expiresAt: Date }> {
    const passwordHash = await hashPassword(input.password);
    try {
      const row = await this.deps.users.create({
        username: input.username,
        displayName: input.displayName,
        email: input.email,
        passwordHash,
        isPublic: input.isPublic,
        language: input.language ?? null,
      });
      const session = await this.deps.sessions.start(row.id);
      return { user: toUser(row), ...session };
    } catch (error) {
      if (error instanceof UsernameTakenError) throw conflict("auth.username_taken");
      if (error instanceof EmailTakenError) throw conflict("auth.email_taken");
      throw error;
    }
  }

  /** One answer for an unknown username and a wrong password, taking the same time. */
  async login(
    username: string,
    password: string,
  ): Promise<{ user: User; token: string; expiresAt: Date }> {
    const row = await this.deps.users.findByUsername(username);
    const ok = await verifyPassword(row?.password_hash ?? (await DUMMY_PASSWORD_HASH), password);
    if (!row || !ok) throw new HttpError(401, "auth.invalid_credentials");
    const session = await this.deps.sessions.start(row.id);
    return { user: toUser(row), ...session };
  }

  async logout(token: string | undefined): Promise<void> {
    await this.deps.sessions.end(token);
  }

  /**
   * Answers at once and the same way whether or not the email is known (no user enumeration);
   * tokens are made and mail is sent after the answer.
   */
  requestPasswordReset(email: string, appUrl: string): void {
    const work = this.sendResetMails(email, appUrl).catch((error: unknown) => {
      this.deps.log.error({ err: error }, "password reset mail failed");
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /**
   * A reset link for `username` (case-insensitive), or null when there is no such account: for an
   * operator who hands it over without mail (`npm run admin -- reset-link`). It replaces any
   * earlier link of the account and lasts as long as a mailed one.
   */
  async createResetLink(username: string, appUrl: string): Promise<string | null> {
    const user = await this.deps.users.findByUsername(username);
    return user ? this.newResetLink(user.id, appUrl) : null;
  }

  private async newResetLink(userId: string, appUrl: string): Promise<string> {
    const now = new Date();
    const token = newSecretToken();
    await this.deps.transactions.run((trx) =>
      this.deps.resetTokens.replaceForUser(
        {
          token_hash: hashToken(token),
          user_id: userId,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
        },
        trx,
      ),
    );
    return `${appUrl.replace(/\/+$/, "")}/reset-password?token=${encodeURIComponent(token)}`;
  }

  private async sendResetMails(email: string, appUrl: string): Promise<void> {
    // Emails are not unique: each account using this address gets its own link.
    for (const user of await this.deps.users.findByEmail(email)) {
      if (!user.email) continue;
      const link = await this.newResetLink(user.id, appUrl);
      // In the account's language; an account that never chose one (null) reads English.
      const language = languageOf(user.language);
      const words = wordsIn(language).RESET_MAIL;
      const name = mailLine(user.display_name || user.username);
      await this.deps.mailer.send({
        to: user.email,
        subject: words.subject,
        text: [
          formatMessage(words.greeting, { name }, language),
          "",
          formatMessage(words.asked, { username: mailLine(user.username) }, language),
          words.action,
          "",
          link,
          "",
          words.ignore,
        ].join("\n"),
      });
    }
  }

  /**
   * Takes the token (deleted in the same transaction, so it works once), sets the new password
   * and ends every session of that user.
   */
  async resetPassword(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const tokenHash = hashToken(token);
    const done = await this.deps.transactions.run(async (trx) => {
      const row = await this.deps.resetTokens.take(tokenHash, trx);
      if (!row || Date.parse(row.expires_at) <= Date.now()) return false;
      await this.deps.users.setPasswordHash(row.user_id, passwordHash, trx);
      await this.deps.sessions.endAllForUser(row.user_id, trx);
      return true;
    });
    if (!done) throw badRequest("auth.invalid_reset_token");
  }

  /**
   * The account page's password change: the current password must be right (400 otherwise, and
   * nothing changes). Every session of the user ends, this one included, and pending reset links
   * die; the caller gets a fresh session for this browser, so a copy of the old cookie (wherever
   * it leaked) stops working too.
   */
  async changePassword(
    userId: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    await this.verifyCurrentPassword(userId, currentPassword);
    const passwordHash = await hashPassword(newPassword);
    return this.deps.transactions.run(async (trx) => {
      await this.deps.users.setPasswordHash(userId, passwordHash, trx);
      await this.deps.resetTokens.deleteForUser(userId, trx);
      await this.deps.sessions.endAllForUser(userId, trx);
      return this.deps.sessions.start(userId, trx);
    });
  }

  /**
   * Throws 400 'Current password is incorrect' unless `password` is the user's (401 when the user
   * is gone): what changing the password, the email or deleting the account asks first.
   */
  async verifyCurrentPassword(userId: string, password: string): Promise<void> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw unauthorized();
    if (!(await verifyPassword(row.password_hash, password))) {
      throw badRequest("auth.wrong_current_password");
    }
  }

  /** Part of deleting an account: every session and reset token of the user, inside `trx`. */
  async endAllAccess(userId: string, trx: Executor): Promise<void> {
    await this.deps.sessions.endAllForUser(userId, trx);
    await this.deps.resetTokens.deleteForUser(userId, trx);
  }

  /** Waits for mail still being sent (used when the app closes). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
