import type { Kysely, Selectable } from "kysely";
import type { DatabaseKind } from "../db/connection";
import { isUniqueViolation } from "../db/constraint-errors";
import type { Database, UsersTable } from "../db/schema";
import type { Executor } from "../db/transactions";
import { newId, nowIso } from "../ids";
import { createOwnJournal } from "../journals/journals.repo";

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  username: string;
  displayName: string | null;
  email: string | null;
  passwordHash: string;
  isPublic: boolean;
  language?: string | null;
}

/** The only code that reads or writes the users table. */
export class UsersRepo {
  /** `kind` is needed only to lock a row (`lockForDelete`); PostgreSQL and SQLite lock differently. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind?: DatabaseKind,
  ) {}

  /**
   * Inserts a user and its own journal; throws UsernameTakenError when the name is taken
   * (case-insensitively).
   */
  async create(input: NewUser): Promise<UserRow> {
    const now = nowIso();
    const row: UserRow = {
      id: newId(),
      username: input.username,
      username_lower: input.username.toLowerCase(),
      display_name: input.displayName,
      email: input.email,
      email_lower: input.email ? input.email.toLowerCase() : null,
      password_hash: input.passwordHash,
      is_public: input.isPublic ? 1 : 0,
      language: input.language ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto("users").values(row).execute();
        await createOwnJournal(
          {
            id: row.id,
            name: row.display_name ?? row.username,
            createdAt: now,
            language: row.language,
          },
          trx,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw isEmailViolation(error) ? new EmailTakenError() : new UsernameTakenError();
      }
      throw error;
    }
    return row;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom("users")
      .selectAll()
      .where("username_lower", "=", username.toLowerCase())
      .executeTakeFirst();
  }

  /** Every account, by username: the operator's list (`npm run admin -- users`). */
  async listAll(): Promise<UserRow[]> {
    return this.db.selectFrom("users").selectAll().orderBy("username_lower").execute();
  }

  async findByEmail(email: string): Promise<UserRow[]> {
    return this.db
      .selectFrom("users")
      .selectAll()
      .where("email_lower", "=", email.toLowerCase())
      .execute();
  }

  async setPublic(id: string, isPublic: boolean): Promise<UserRow | undefined> {
    await this.db
      .updateTable("users")
      .set({ is_public: isPublic ? 1 : 0, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
    return this.findById(id);
  }

  /** Sets the fields given (undefined leaves a field as it is); the row after, or undefined. */
  async updateProfile(
    id: string,
    changes: { displayName?: string | null; email?: string | null; language?: string | null },
  ): Promise<UserRow | undefined> {
    await this.db
      .updateTable("users")
      .set({
        ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
        ...(changes.email !== undefined
          ? { email: changes.email, email_lower: changes.email?.toLowerCase() ?? null }
          : {}),
        ...(changes.language !== undefined ? { language: changes.language } : {}),
        updated_at: nowIso(),
      })
      .where("id", "=", id)
      .execute()
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? new EmailTakenError() : error;
      });
    return this.findById(id);
  }

  /**
   * Locks the user row for the rest of the transaction (PostgreSQL; SQLite has one writer), so no
   * memory, upload or session can be added for it until the transaction ends: rows that reference
   * a user take a key-share lock on it. False when the user is gone.
   */
  async lockForDelete(id: string, trx: Executor): Promise<boolean> {
    if (!this.kind) throw new Error("UsersRepo needs the database kind to lock rows");
    const query = trx.selectFrom("users").select("id").where("id", "=", id);
    const row = await (this.kind === "postgres" ? query.forUpdate() : query).executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the user row (its username becomes free again); false when it was already gone. */
  async delete(id: string, trx: Executor): Promise<boolean> {
    const result = await trx.deleteFrom("users").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setPasswordHash(id: string, passwordHash: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
  }
}

export class UsernameTakenError extends Error {}

/** Another account uses this email (one account per email, case-insensitively: ADR 0038). */
export class EmailTakenError extends Error {}

/** Whether a unique violation was the email's index (its name or column is in the message). */
function isEmailViolation(error: unknown): boolean {
  const e = error as { constraint?: string; message?: string };
  return /email/.test(e.constraint ?? "") || /email/.test(e.message ?? "");
}
