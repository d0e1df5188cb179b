import type { FastifyReply, FastifyRequest } from "fastify";
import type { Membership } from "../../shared/authorization";
import type { Config } from "../config";
import type { Executor } from "../db/transactions";
import { hashToken, newSecretToken } from "../ids";
import type { SessionsRepo } from "./sessions.repo";

export const SESSION_COOKIE = "vmj_session";
/** Marks the browser that recorded anonymously, so only it can claim what it recorded. */
export const VISITOR_COOKIE = "vmj_visitor";

const DAY_MS = 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{40,64}$/;

/** Logged-in sessions: random 256-bit tokens in a cookie, stored only as hashes. */
export class SessionService {
  constructor(
    private readonly repo: SessionsRepo,
    private readonly config: Pick<Config, "SESSION_IDLE_DAYS" | "SESSION_MAX_DAYS">,
  ) {}

  /** A new session for the user (inside the caller's transaction when given one). */
  async start(userId: string, trx?: Executor): Promise<{ token: string; expiresAt: Date }> {
    const token = newSecretToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.SESSION_MAX_DAYS * DAY_MS);
    await this.repo.create(
      {
        id_hash: hashToken(token),
        user_id: userId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      },
      trx,
    );
    return { token, expiresAt };
  }

  /** The user id of a live session, or null for a missing, tampered or expired one. */
  async resolve(token: string | undefined): Promise<string | null> {
    if (!token || !TOKEN_PATTERN.test(token)) return null;
    const idHash = hashToken(token);
    const session = await this.repo.find(idHash);
    if (!session) return null;
    const now = Date.now();
    const idleDeadline = Date.parse(session.last_seen_at) + this.config.SESSION_IDLE_DAYS * DAY_MS;
    if (now >= Date.parse(session.expires_at) || now >= idleDeadline) {
      await this.repo.delete(idHash);
      return null;
    }
    if (now - Date.parse(session.last_seen_at) > TOUCH_INTERVAL_MS) {
      await this.repo.touch(idHash, new Date(now).toISOString());
    }
    return session.user_id;
  }

  async end(token: string | undefined): Promise<void> {
    if (token && TOKEN_PATTERN.test(token)) await this.repo.delete(hashToken(token));
  }

  /** Ends every session of a user (inside the caller's transaction when given one). */
  async endAllForUser(userId: string, trx?: Executor): Promise<void> {
    await this.repo.deleteAllForUser(userId, trx);
  }
}

/** Who is asking: the logged-in user (if any) and this browser's visitor mark (if any). */
export interface Identity {
  userId: string | null;
  /** Hash of the visitor cookie; null until the browser records something anonymously. */
  visitorHash: string | null;
  /** The account's journals and roles (ADR 0057), read on every request. Absent means none. */
  memberships?: readonly Membership[];
  /**
   * Journals whose saved memories this browser may see as if they were public, through live
   * share links it opened (ADR 0019); checked against the database on every request.
   */
  sharedJournalIds?: readonly string[];
  /** The member a personal recording link speaks for: set only by the link's routes (ADR 0060). */
  recordingFor?: Membership;
}

/** What deciding whether a profile is visible reads of the identity. */
export type Viewer = Pick<Identity, "userId" | "memberships" | "sharedJournalIds">;

declare module "fastify" {
  interface FastifyRequest {
    identity: Identity;
  }
}

export function isSecure(request: FastifyRequest, config: Pick<Config, "COOKIE_SECURE">): boolean {
  if (config.COOKIE_SECURE === "auto") return request.protocol === "https";
  return config.COOKIE_SECURE === "true";
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<Config, "COOKIE_SECURE">,
  session: { token: string; expiresAt: Date },
): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request, config),
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}

/** Returns this browser's visitor hash, giving it a visitor cookie first if it has none. */
export function ensureVisitor(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<Config, "COOKIE_SECURE">,
): string {
  if (request.identity.visitorHash) return request.identity.visitorHash;
  const token = newSecretToken();
  reply.setCookie(VISITOR_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request, config),
    maxAge: 365 * 24 * 60 * 60,
  });
  const visitorHash = hashToken(token);
  request.identity = { ...request.identity, visitorHash };
  return visitorHash;
}

/** Resolves `request.identity` for every API request from the session and visitor cookies. */
export async function resolveIdentity(
  request: FastifyRequest,
  sessions: SessionService,
): Promise<Identity> {
  const visitor = request.cookies[VISITOR_COOKIE];
  return {
    userId: await sessions.resolve(request.cookies[SESSION_COOKIE]),
    visitorHash: visitor && TOKEN_PATTERN.test(visitor) ? hashToken(visitor) : null,
  };
}
