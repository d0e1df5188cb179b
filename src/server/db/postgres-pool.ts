import pg from "pg";

/** Connections one process holds at most. */
export const POSTGRES_POOL_SIZE = 10;

/**
 * The PostgreSQL pool. A connection the server drops (a restart, a failover, an administrator's
 * `pg_terminate_backend`) makes its client emit `error`, and an `error` with no listener ends the
 * process. pg-pool listens only while a client is idle; a client checked out for a query or a
 * transaction is the caller's, so every client gets a listener of its own here. The client is
 * then unusable: its query fails (a failed request or a retried job) and the pool discards it on
 * release; the next query connects afresh.
 */
export function createPostgresPool(
  url: string,
  onConnectionError?: (error: Error) => void,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: 5000,
  });
  pool.on("connect", (client) => {
    client.on("error", (error) => onConnectionError?.(error));
  });
  // The idle client's error reaches the listener above too; this one only keeps the pool's own
  // re-emission from being unhandled.
  pool.on("error", () => undefined);
  return pool;
}

/** PostgreSQL error classes that mean "the server is gone or refusing for now", not a bad query. */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]|53300)/;

const UNAVAILABLE_TEXT =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
]);

/**
 * Whether `error` says the database cannot be reached right now (worth a 503 and a retry), as
 * opposed to a failing query (a bug, a 500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === "string" &&
    (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_CODES.has(code))
  ) {
    return true;
  }
  return UNAVAILABLE_TEXT.test(error.message);
}
