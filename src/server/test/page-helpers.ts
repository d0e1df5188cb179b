import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import type { MemoryStatus } from "../../shared/schemas";
import { type DatabaseHandle, type DatabaseKind, openDatabase } from "../db/connection";
import type { Database } from "../db/schema";
import { MemoriesRepo, type MemoryScope } from "../memories/memories.repo";
import { createTestDatabase, type TestDatabase } from "./harness";

/**
 * What list page N means, for tests of the repository's paging (ADR 0036): the ids of a
 * plain OFFSET over the whole scope, newest recorded first.
 */
export async function offsetPageIds(
  db: Kysely<Database>,
  scope: MemoryScope,
  page: number,
): Promise<string[]> {
  const saved = scope.savedOnly ? sql`and status = 'saved'` : sql``;
  const result = await sql<{ id: string }>`select id from memories
    where journal_id = ${scope.journalId} ${saved} order by recorded_at desc, seq desc
    limit ${PAGE_SIZE} offset ${(page - 1) * PAGE_SIZE}`.execute(db);
  return result.rows.map((row) => row.id);
}

/** Enough memories for 80 pages over six months, so most pages start inside a month. */
export const TIED_JOURNAL = 1237;

/**
 * Seeds TIED_JOURNAL memories for a user, seven to a day (ties in recorded_at, broken by seq),
 * inserted in a shuffled order so seq does not follow recorded_at; one in five processing, one
 * in seven failed.
 */
export async function seedJournalWithTies(repo: MemoriesRepo, userId: string): Promise<void> {
  await repo.insertMany(
    Array.from({ length: TIED_JOURNAL }, (_, i) => {
      const day = (i * 7919) % TIED_JOURNAL;
      const status: MemoryStatus = i % 5 === 0 ? "processing" : i % 7 === 0 ? "failed" : "saved";
      return {
        userId,
        audioId: null,
        recordedAt: new Date(Date.UTC(2020, 0, 1) + Math.floor(day / 7) * 86_400_000).toISOString(),
        status,
      };
    }),
  );
}

/** Two app instances on one test database: each its own connection and MemoriesRepo. */
export interface TwoInstances {
  t: TestDatabase;
  repo: MemoriesRepo;
  /** The second instance's connection. */
  second: DatabaseHandle;
  /** The second instance's repository (its own connection). */
  elsewhere: MemoriesRepo;
}

/**
 * Opens a test database and a second connection to it in the suite's beforeAll, and closes both
 * in its afterAll; the returned object is filled in once beforeAll has run.
 */
export function twoInstancesOn(kind: DatabaseKind): TwoInstances {
  const instances = {} as TwoInstances;
  beforeAll(async () => {
    instances.t = await createTestDatabase(kind);
    instances.repo = new MemoriesRepo(instances.t.handle.db, instances.t.handle.kind);
    instances.second = await openDatabase(instances.t.target);
    instances.elsewhere = new MemoriesRepo(instances.second.db, instances.second.kind);
  });
  afterAll(async () => {
    await instances.second?.close();
    await instances.t?.cleanup();
  });
  return instances;
}
