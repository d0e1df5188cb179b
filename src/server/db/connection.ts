import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type SqliteDatabase as KyselySqliteDatabase,
  PostgresDialect,
  type QueryCompiler,
  type QueryResult,
  SqliteDialect,
  sql,
  type TransactionSettings,
} from "kysely";
import pg from "pg";
import { migrateToLatest } from "./migrate";
import { registerRelevanceFunction } from "./relevance";
import type { Database } from "./schema";
import { registerSearchWordsFunction } from "./search-words";
import { UniqueKeyLookups } from "./sqlite-point-reads";
import { DEFAULT_SQLITE_READ_WORKERS, SqliteReadPool } from "./sqlite-read-pool";

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
  /** Told when PostgreSQL drops an idle pooled connection (a restart, a failover). */
  onConnectionError?: (error: Error) => void;
  /**
   * SQLite only: how many worker threads run plain reads, each on its own read-only connection
   * (ADR 0026); 0 runs every query on the event loop.
   */
  sqliteReadWorkers?: number;
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

/**
 * Where reads are sent: once started (after migrations), the worker pool, and a read-only
 * connection on the event loop for unique-key lookups (ADR 0033); else the main connection.
 */
interface ReadRoute {
  pool?: SqliteReadPool;
  pointReads?: PointReads;
}

/**
 * Reads of one row by its whole unique key (the session lookup every API request makes, a
 * user's count row) cost one B-tree descent, a few microseconds: less than the message to a
 * worker thread and back, which costs the event loop more than the query itself (ADR 0026's
 * trade-offs). They run at once on a read-only connection of their own, which, like a worker's,
 * sees every committed write and never waits for the main connection's lock.
 */
class PointReads {
  private readonly lookups: UniqueKeyLookups;
  private readonly statements: StatementCache;

  constructor(file: string) {
    const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Every statement is asked whether it is a unique-key lookup, a search's too.
    registerRelevanceFunction(sqlite);
    this.lookups = new UniqueKeyLookups(sqlite);
    this.statements = withStatementCache(sqlite);
  }

  /** The rows of `sql` when it is a unique-key lookup, else undefined (not run). */
  tryRead(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (!this.lookups.test(sql, parameters)) return undefined;
    return this.statements.prepare(sql).all(parameters);
  }

  close(): void {
    this.statements.close();
  }
}

// A pragma's answer is about one connection (foreign_keys, journal_mode), so it must come from the
// main one even when SQLite calls it read-only.
const PRAGMA = /^\s*pragma\b/i;

/**
 * SQLite through one main connection (writes, transactions, streams, migrations, pragmas) and,
 * once `reads.pool` is set, worker threads for plain reads outside transactions (ADR 0026).
 * better-sqlite3 runs each query synchronously, and Kysely resolves its result at once, so the
 * queries of many waiting requests would run back to back inside one turn of the event loop; each
 * query on the main connection first yields one turn (setImmediate): the longest wait for anything
 * else is then one query, not a queue of them (issue 18).
 */
class RoutingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly main: StatementCache,
    private readonly reads: ReadRoute,
  ) {
    super({ database: main });
  }

  override createDriver(): Driver {
    return new RoutingSqliteDriver(super.createDriver(), this.main, this.reads);
  }
}

class RoutingSqliteDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly main: StatementCache,
    readonly reads: ReadRoute,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  /** Takes nothing yet: a read sent to a worker never waits for the main connection. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedSqliteConnection(this);
  }

  /** The main connection, once any transaction or query holding it has finished. */
  async lockMain(): Promise<DatabaseConnection> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return this.inner.acquireConnection();
  }

  /**
   * A plain read: a statement that returns rows and changes nothing, as SQLite itself judges
   * it (the main connection's statement cache makes asking cheap). Its syntax errors are thrown
   * here, as the main connection would throw them.
   */
  isPlainRead(sql: string): boolean {
    const statement = this.main.prepare(sql);
    return statement.reader && statement.readonly && !PRAGMA.test(sql);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const routed = connection as RoutedSqliteConnection;
    routed.inTransaction = true;
    await this.inner.beginTransaction(await routed.mainConnection(), settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const routed = connection as RoutedSqliteConnection;
    await this.inner.commitTransaction(await routed.mainConnection());
    routed.inTransaction = false;
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const routed = connection as RoutedSqliteConnection;
    await this.inner.rollbackTransaction(await routed.mainConnection());
    routed.inTransaction = false;
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) {
    const main = await (connection as RoutedSqliteConnection).mainConnection();
    await this.inner.savepoint?.(main, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) {
    const main = await (connection as RoutedSqliteConnection).mainConnection();
    await this.inner.rollbackToSavepoint?.(main, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler["compileQuery"],
  ) {
    const main = await (connection as RoutedSqliteConnection).mainConnection();
    await this.inner.releaseSavepoint?.(main, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const held = (connection as RoutedSqliteConnection).heldMain;
    if (held) await this.inner.releaseConnection(await held);
  }

  async destroy(): Promise<void> {
    const { pool, pointReads } = this.reads;
    this.reads.pool = undefined;
    this.reads.pointReads = undefined;
    pointReads?.close();
    await pool?.close();
    await this.inner.destroy();
  }
}

/**
 * What Kysely holds between acquiring and releasing a connection. It takes the main connection
 * (and its lock) only when something must run there; inside a transaction everything does, so a
 * transaction reads its own uncommitted writes.
 */
class RoutedSqliteConnection implements DatabaseConnection {
  inTransaction = false;
  heldMain?: Promise<DatabaseConnection>;

  constructor(private readonly driver: RoutingSqliteDriver) {}

  mainConnection(): Promise<DatabaseConnection> {
    this.heldMain ??= this.driver.lockMain();
    return this.heldMain;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const pool = this.driver.reads.pool;
    // A write on the main connection has committed before its promise resolves (autocommit, or
    // the transaction's commit), so a read sent afterwards sees it.
    // With no worker left (each replacement failed to open the file), reads fall back to the
    // main connection rather than fail.
    if (pool?.size && !this.inTransaction && !this.heldMain && this.driver.isPlainRead(query.sql)) {
      const pointRows = this.driver.reads.pointReads?.tryRead(query.sql, query.parameters);
      if (pointRows) return { rows: pointRows as R[] };
      const rows = await pool.query(query.sql, query.parameters);
      return { rows: rows as R[] };
    }
    return (await this.mainConnection()).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number) {
    // Streams (the backup) iterate a statement across many turns: the main connection's job.
    yield* (await this.mainConnection()).streamQuery<R>(query, chunkSize);
  }
}

export async function openDatabase(
  target: DatabaseTarget,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  if (target.kind === "sqlite") {
    makeSqliteFilesPrivate(target.file);
    const sqlite = new SqliteDatabase(target.file);
    // Memories are irreplaceable: WAL with full sync, foreign keys, and waiting on locks.
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // The full-text triggers call it on every write of a memory (migration 0010).
    registerSearchWordsFunction(sqlite);
    // Search ranks its candidates with it, here or on a read worker (relevance.js).
    registerRelevanceFunction(sqlite);
    const reads: ReadRoute = {};
    const db = new Kysely<Database>({
      dialect: new RoutingSqliteDialect(withStatementCache(sqlite), reads),
    });
    const handle: DatabaseHandle = {
      db,
      kind: "sqlite",
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
    const readWorkers = options.sqliteReadWorkers ?? DEFAULT_SQLITE_READ_WORKERS;
    try {
      await migrateToLatest(handle);
      // Started after the migrations, which run on the main connection, so workers see the schema.
      if (readWorkers > 0) {
        reads.pool = await SqliteReadPool.start({
          file: target.file,
          size: readWorkers,
          statementCacheSize: STATEMENT_CACHE_SIZE,
          busyTimeoutMs: BUSY_TIMEOUT_MS,
        });
        reads.pointReads = new PointReads(target.file);
      }
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw error;
    }
    return handle;
  }

  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    connectionTimeoutMillis: 5000,
  });
  // Without a listener, an idle client's dropped connection would crash the process; the pool
  // discards that client and the next query connects afresh.
  pool.on("error", (error) => options.onConnectionError?.(error));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const handle: DatabaseHandle = {
    db,
    kind: "postgres",
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
  try {
    await handle.ping();
    await migrateToLatest(handle);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return handle;
}
