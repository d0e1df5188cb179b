import { createHash } from "node:crypto";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { type Kysely, sql } from "kysely";
import type { Database } from "./db/schema";

/** Longer keys (they may hold what a client sent) are stored as their hash, to fit the column. */
const MAX_PLAIN_KEY_LENGTH = 200;

function storedKey(key: string): string {
  return key.length <= MAX_PLAIN_KEY_LENGTH
    ? key
    : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/** How often, at most, expired counters are deleted (by whichever instance counts next). */
const SWEEP_EVERY_MS = 60_000;

export interface RateLimitState {
  /** Requests counted in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Fixed-window request counters in the database: one atomic upsert per counted request, so every
 * app instance on the same database (and a restarted one) sees the same counts.
 */
export class RateLimitCounters {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(rawKey: string, windowMs: number): Promise<RateLimitState> {
    const key = storedKey(rawKey);
    const now = this.now();
    const at = sql<number>`cast(${now} as bigint)`;
    const expired = sql<boolean>`rate_limits.expires_at <= ${at}`;
    const row = await this.db
      .insertInto("rate_limits")
      .values({ key, count: 1, expires_at: now + windowMs })
      .onConflict((conflict) =>
        conflict.column("key").doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
          expires_at: sql<number>`case when ${expired} then cast(${now + windowMs} as bigint) else rate_limits.expires_at end`,
        }),
      )
      .returning(["count", "expires_at"])
      .executeTakeFirstOrThrow();
    this.sweepNowAndThen(now);
    return { current: Number(row.count), ttl: Math.max(0, Number(row.expires_at) - now) };
  }

  /** The state of `key` without counting a request. */
  async read(rawKey: string): Promise<RateLimitState> {
    const key = storedKey(rawKey);
    const now = this.now();
    const row = await this.db
      .selectFrom("rate_limits")
      .select(["count", "expires_at"])
      .where("key", "=", key)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return row
      ? { current: Number(row.count), ttl: Number(row.expires_at) - now }
      : { current: 0, ttl: 0 };
  }

  /**
   * Housekeeping: deletes every counter whose window ended at or before `now`; returns how many.
   * (Counting also sweeps now and then, best effort; this one runs on a schedule and reports.)
   */
  async deleteExpired(now: Date): Promise<number> {
    const result = await this.db
      .deleteFrom("rate_limits")
      .where("expires_at", "<=", now.getTime())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private sweepNowAndThen(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    // Best effort: a counter left behind is harmless (it restarts when its window has passed).
    this.deleteExpired(new Date(now)).catch(() => undefined);
  }
}

type StoreCallback = (error: Error | null, result?: RateLimitState) => void;

/** The plugin's stores answer through callbacks. */
function settle(state: Promise<RateLimitState>, callback: StoreCallback): void {
  state.then(
    (result) => callback(null, result),
    (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
  );
}

interface ChildOptions {
  groupId?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit backed by `counters`. Each route's counters are kept apart by the
 * route (method and URL) or `groupId`: names that are the same on every instance, unlike the
 * in-memory store's per-object maps. Limiters made with `createRateLimit` have no route, so their
 * key generators must name them.
 */
export function databaseRateLimitStore(counters: RateLimitCounters): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly namespace = "global",
    ) {}

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      settle(counters.hit(`${this.namespace}|${key}`, timeWindow), callback);
    }

    read(key: string, callback: StoreCallback): void {
      settle(counters.read(`${this.namespace}|${key}`), callback);
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const { groupId, routeInfo } = routeOptions as ChildOptions;
      const route = routeInfo?.url
        ? `${[routeInfo.method ?? ""].flat().join(",")} ${routeInfo.url}`
        : undefined;
      // Limiters made with createRateLimit have no route: their key generators name them.
      const namespace = groupId ?? route ?? "limiter";
      return new DatabaseRateLimitStore(undefined, namespace);
    }
  }
  return DatabaseRateLimitStore;
}
