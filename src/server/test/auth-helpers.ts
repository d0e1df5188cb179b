import type { Kysely } from "kysely";
import { hashPassword } from "../auth/password";
import type { Identity } from "../auth/session.service";
import { SESSION_COOKIE, SessionService } from "../auth/session.service";
import { SessionsRepo } from "../auth/sessions.repo";
import type { Database } from "../db/schema";
import { newId } from "../ids";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";
import { type UserRow, UsersRepo } from "../users/users.repo";
import type { TestApp } from "./harness";

export interface TestUser {
  user: UserRow;
  password: string;
  /** A `cookie` header value for requests as this user. */
  cookie: string;
}

let cachedHash: Promise<string> | undefined;

/** A unique username the rules accept, for users made directly. */
function uniqueUsername(prefix: string): string {
  return `${prefix}${newId()
    .slice(0, 10)
    .replace(/[^A-Za-z0-9]/g, "x")}`;
}

/** Creates a user row directly, without a session or a usable password: for repository tests. */
export function createBareUser(db: Kysely<Database>, username = uniqueUsername("u")) {
  return new UsersRepo(db).create({
    username,
    displayName: null,
    email: null,
    passwordHash: "x",
    isPublic: true,
  });
}

/** Creates a user directly and opens a session for it; for tests of other features. */
export async function createUserWithSession(
  t: Pick<TestApp, "database" | "config">,
  options: {
    username?: string;
    isPublic?: boolean;
    email?: string | null;
    language?: string | null;
  } = {},
): Promise<TestUser> {
  const password = "correct horse battery";
  cachedHash ??= hashPassword(password);
  const user = await new UsersRepo(t.database.db).create({
    username: options.username ?? uniqueUsername("user_"),
    displayName: null,
    email: options.email ?? null,
    passwordHash: await cachedHash,
    isPublic: options.isPublic ?? true,
    language: options.language ?? null,
  });
  const session = await new SessionService(new SessionsRepo(t.database.db), t.config).start(
    user.id,
  );
  return { user, password, cookie: `${SESSION_COOKIE}=${session.token}` };
}

/** The identity a request of this account alone (its own journal, no share link) resolves to. */
export function accountIdentity(userId: string): Identity {
  return {
    userId,
    visitorHash: null,
    memberships: [
      { journalId: ownJournalId(userId), memberId: ownMemberId(userId), role: "organizer" },
    ],
  };
}
