import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, terminateConnections } from "../src/server/test/harness";
import { MESSAGES } from "../src/shared/messages";
import { ApiClient } from "./api-client";
import { startServer } from "./harness";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("PostgreSQL dropping every connection under load", () => {
  it("the built app stays up: requests answer 200 or 503 'Database unreachable', later ones 200", async () => {
    const database = await createTestDatabase("postgres");
    cleanups.push(() => database.cleanup());
    if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
    await database.handle.close();
    const server = await startServer({ DATABASE_URL: database.target.url });
    cleanups.push(() => server.cleanup());
    const client = new ApiClient(server.url);
    await client.register("pg_restart_family");

    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const load = Array.from({ length: 10 }, () => client.request("GET", "/api/memories"));
      // What a restart or a failover does: every backend of the app's database ends.
      await terminateConnections(database.target);
      for (const res of await Promise.all(load)) {
        statuses.push(res.status);
        if (res.status !== 200) {
          expect(res.status).toBe(503);
          expect(await res.json()).toEqual({
            code: "database_unreachable",
            message: MESSAGES.databaseUnreachable,
          });
        }
      }
    }
    expect(statuses).toHaveLength(100);
    expect(server.process.exitCode).toBeNull();
    // A connection ended in the last round is noticed when next used, so until the pool has
    // replaced them a request may still answer 503; then requests answer 200 again.
    let inARow = 0;
    for (let i = 0; i < 40 && inARow < 5; i++) {
      const status = (await client.request("GET", "/api/memories")).status;
      expect([200, 503]).toContain(status);
      inARow = status === 200 ? inARow + 1 : 0;
    }
    expect(inARow).toBe(5);
    expect((await client.request("GET", "/api/health")).status).toBe(200);
    expect(server.logs.join("")).not.toMatch(/uncaught error|exited/);
  });
});
