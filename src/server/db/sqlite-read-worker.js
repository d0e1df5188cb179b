// One SQLite read worker (ADR 0026): a read-only connection to the journal's file that answers
// the read queries sqlite-read-pool.ts sends it, one at a time, off the main event loop.
// Plain JavaScript on purpose: a worker thread cannot load TypeScript on Node 20 without a loader,
// and starting tsx in every worker costs about 300 ms, paid by every test that opens a database.
// The same file runs from src/ (tests, tsx) and from dist/server/ (scripts/build-server.mjs).
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import SqliteDatabase from "better-sqlite3";
import { registerRelevanceFunction } from "./relevance.js";

/** @type {{ file: string, statementCacheSize: number, busyTimeoutMs: number, niceness: number }} */
const { file, statementCacheSize, busyTimeoutMs, niceness } = workerData;

const port = parentPort;
if (!port) throw new Error("sqlite-read-worker.js runs only as a worker thread");

/** An error as plain data: a thrown SqliteError loses its message on the way to the parent. */
function describe(/** @type {unknown} */ error) {
  const { name, message, code } =
    /** @type {{ name?: unknown, message?: unknown, code?: unknown }} */ (error ?? {});
  return {
    name: String(name),
    message: String(message),
    code: typeof code === "string" ? code : undefined,
  };
}

lowerThreadPriority(Number(niceness));

/** @type {import("better-sqlite3").Database} */
let sqlite;
try {
  sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  sqlite.pragma(`busy_timeout = ${Number(busyTimeoutMs)}`);
  // The main connection has it too: a search is ranked on whichever connection reads it.
  registerRelevanceFunction(sqlite);
} catch (error) {
  // Said to the pool, then the thread ends: nothing is listening.
  port.postMessage({ failed: describe(error) });
  port.close();
}

// The same least-recently-used cache as withStatementCache in connection.ts, for this
// connection's statements (a worker runs one query at a time, so none is ever busy).
/** @type {Map<string, import("better-sqlite3").Statement>} */
const statements = new Map();

/** @param {string} text */
function prepare(text) {
  const cached = statements.get(text);
  if (cached) {
    statements.delete(text);
    statements.set(text, cached);
    return cached;
  }
  const statement = sqlite.prepare(text);
  statements.set(text, statement);
  if (statements.size > statementCacheSize) {
    const oldest = statements.keys().next().value;
    if (oldest !== undefined) statements.delete(oldest);
  }
  return statement;
}

if (sqlite)
  port.on(
    "message",
    (/** @type {{ id: number, sql: string, parameters: unknown[] }} */ request) => {
      try {
        const statement = prepare(request.sql);
        // The pool sends only statements the main connection found read-only; the connection is
        // read-only too, so this is a second guard, not the decision.
        if (!statement.reader)
          throw new Error("the SQLite read worker runs only queries that return rows");
        port.postMessage({ id: request.id, rows: statement.all(request.parameters) });
      } catch (error) {
        port.postMessage({ id: request.id, error: describe(error) });
      }
    },
  );

if (sqlite) port.postMessage({ ready: true });

/**
 * Makes this thread yield its core to the main thread: on Linux a thread has its own niceness,
 * set through its thread id (/proc/thread-self names it). Elsewhere, or if refused, it stays as is.
 * @param {number} niceness
 */
function lowerThreadPriority(niceness) {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    setPriority(threadId, niceness);
  } catch {
    // Not Linux: the read still runs, at the process's priority.
  }
}
