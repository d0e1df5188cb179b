import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import {
  Kysely,
  type SqliteDatabase as KyselySqliteDatabase,
  PostgresDialect,
  SqliteDialect,
  sql,
} from "kysely";
import pg from "pg";
import { migrateToLatest } from "./migrate";
import { createPostgresPool } from "./postgres-pool";
import type { Database } from "./schema";

export type DatabaseKind = "sqlite" | "postgres";

export type DatabaseTarget = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/** An open, migrated database: the query builder plus which dialect it speaks. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// count(*) and bigint come back as strings from pg; these columns are small enough for numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface OpenOptions {
  /** Told when PostgreSQL drops a connection, idle or in use (a restart, a failover). */
  onConnectionError?: (error: Error) => void;
  /** Migrates only up to this migration (a test of an upgrade); otherwise to the latest. */
  upTo?: string;
}

/**
 * The SQLite file is for the service's user only. It is created 0600 before SQLite opens it
 * (an empty file is an empty database) because SQLite gives the -wal and -shm files it creates the
 * database file's mode; files an earlier version left 0644 are tightened.
 */
function makeSqliteFilesPrivate(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, "a", 0o600));
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(each, 0o600);
    } catch (error) {
      // Absent (no WAL yet), or owned by another user who then decides who may read it.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}

/** How many prepared statements one SQLite connection keeps for reuse. */
const STATEMENT_CACHE_SIZE = 256;

/** How long a connection waits for another's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/** A SQLite connection as Kysely uses it, handing out better-sqlite3's statements. */
export interface StatementCache extends KyselySqliteDatabase {
  prepare(text: string): SqliteDatabase.Statement;
}

/**
 * Kysely prepares every query afresh, and preparing costs about as much as running a small
 * query; the app sends the same few hundred query texts over and over, so their prepared
 * statements are kept (least recently used dropped first). A statement still being iterated (a
 * stream) is never handed out twice: a fresh one is prepared instead. SQLite re-prepares a cached
 * statement by itself after a schema change.
 */
export function withStatementCache(
  sqlite: SqliteDatabase.Database,
  size = STATEMENT_CACHE_SIZE,
): StatementCache {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      const cached = cache.get(text);
      if (cached && !cached.busy) {
        // Re-inserted to mark it recently used (a Map keeps insertion order).
        cache.delete(text);
        cache.set(text, cached);
        return cached;
      }
      const statement = sqlite.prepare(text);
      if (!cached) {
        cache.set(text, statement);
        if (cache.size > size) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      return statement;
    },
  };
}

export async function openDatabase(
  target: DatabaseTarget,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  let db: Kysely<Database>;
  if (target.kind === "sqlite") {
    makeSqliteFilesPrivate(target.file);
    const sqlite = new SqliteDatabase(target.file);
    // Memories are irreplaceable: WAL with full sync, foreign keys, and waiting on locks.
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // One connection: better-sqlite3 runs each query synchronously, and a deployment that needs
    // concurrency uses PostgreSQL.
    db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
  } else {
    const pool = createPostgresPool(target.url, options.onConnectionError);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const handle: DatabaseHandle = {
    db,
    kind: target.kind,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
  try {
    if (target.kind === "postgres") await handle.ping();
    await migrateToLatest(handle, options.upTo);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return handle;
}
