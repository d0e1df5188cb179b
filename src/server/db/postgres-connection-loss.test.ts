import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { MESSAGES } from "../../shared/messages";
import { createUserWithSession } from "../test/auth-helpers";
import {
  createTestApp,
  createTestDatabase,
  type TestApp,
  type TestDatabase,
  terminateConnections,
} from "../test/harness";
import { isDatabaseUnavailable, POSTGRES_POOL_SIZE } from "./postgres-pool";

// A restart or failover of PostgreSQL ends every connection at once. The process must outlive it:
// an unhandled `error` event here fails the run (Vitest reports it), which is what killed servers.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("PostgreSQL dropping connections", () => {
  it("a client checked out when its connection ends: its query fails as unreachable, the next connects afresh", async () => {
    let lost!: (error: Error) => void;
    const connectionLost = new Promise<Error>((resolve) => {
      lost = resolve;
    });
    const database: TestDatabase = await createTestDatabase("postgres", {
      onConnectionError: (error) => lost(error),
    });
    cleanups.push(() => database.cleanup());
    const db = database.handle.db;

    await db.connection().execute(async (connection) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
        connection,
      );
      expect(await terminateConnections(database.target, rows[0]?.pid)).toBe(1);
      // The client is checked out (no query running): its error event is the one that was unheard.
      expect((await connectionLost).message).toMatch(/terminat/i);
      const failed = await sql`select 1`.execute(connection).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(failed)).toBe(true);
    });
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it("under load, every request answers 200 or 503 with the product's message, and later ones succeed", async () => {
    const t: TestApp = await createTestApp({ kind: "postgres" });
    cleanups.push(() => t.cleanup());
    const { cookie } = await createUserWithSession(t);
    const read = () => t.app.inject({ method: "GET", url: "/api/memories", headers: { cookie } });
    expect((await read()).statusCode).toBe(200);

    const statuses: number[] = [];
    let ended = 0;
    for (let round = 0; round < 5; round++) {
      // Requests in flight (idle and checked-out clients alike) while every connection is ended.
      const load = Array.from({ length: 20 }, () => read());
      ended += await terminateConnections(t.databaseTarget);
      for (const response of await Promise.all(load)) {
        statuses.push(response.statusCode);
        if (response.statusCode !== 200) {
          expect(response.statusCode).toBe(503);
          expect(response.json()).toEqual({
            code: "database_unreachable",
            message: MESSAGES.databaseUnreachable,
          });
        }
      }
    }
    expect(ended).toBeGreaterThan(0);
    expect(statuses).toHaveLength(100);
    // A connection whose end has not reached the pool yet fails one more request (503) before the
    // pool drops it: at most one per pooled connection, then requests succeed.
    let failed = 0;
    let succeeded = 0;
    while (succeeded < 5) {
      const response = await read();
      if (response.statusCode === 200) {
        succeeded += 1;
        continue;
      }
      expect(response.statusCode).toBe(503);
      failed += 1;
      expect(failed).toBeLessThanOrEqual(POSTGRES_POOL_SIZE);
    }
  });
});
