import type { Kysely, Selectable } from "kysely";
import type { Database, UsersTable } from "../db/schema";
import type { Executor } from "../db/transactions";
import { newId, nowIso } from "../ids";

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  username: string;
  displayName: string | null;
  email: string | null;
  passwordHash: string;
  isPublic: boolean;
}

/** The only code that reads or writes the users table. */
export class UsersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts a user; throws UsernameTakenError when the name is taken (case-insensitively). */
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
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.insertInto("users").values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new UsernameTakenError();
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

  async setPasswordHash(id: string, passwordHash: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where("id", "=", id)
      .execute();
  }
}

export class UsernameTakenError extends Error {}

/** SQLite and PostgreSQL report unique violations differently. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === "23505" ||
    e?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}
