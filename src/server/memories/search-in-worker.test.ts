import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import { relevance } from "../db/relevance";
import { SqliteReadPool } from "../db/sqlite-read-pool";
import { createBareUser } from "../test/auth-helpers";
import { createTestDatabase, type TestDatabase } from "../test/harness";
import { MemoriesRepo, SEARCH_RANK_LIMIT, searchTokens } from "./memories.repo";

/** 330 matches of 'garden', weighed differently, many of them tied in score and day. */
const MATCHES = 330;

describe("SQLite search ranked where it is read", () => {
  let t: TestDatabase;
  let repo: MemoriesRepo;
  let userId: string;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite", { sqliteReadWorkers: 1 });
    repo = new MemoriesRepo(t.handle.db, t.handle.kind);
    userId = (await createBareUser(t.handle.db)).id;
    await repo.insertMany(
      Array.from({ length: MATCHES + 20 }, (_, i) => ({
        userId,
        audioId: null,
        title:
          i < MATCHES && i % 3 === 0 ? `Garden ${i % 7 === 0 ? "garden" : "gate"}` : `Day ${i}`,
        transcript: i < MATCHES ? "rain in the garden" : "no match here",
        summary: i < MATCHES && i % 5 === 0 ? "gardens and gardening" : "",
        tags: i < MATCHES && i % 11 === 0 ? ["garden"] : [],
        // Four memories to a day: ties in recorded_at, broken by seq.
        recordedAt: new Date(Date.UTC(2021, 0, 1) + Math.floor(i / 4) * 86_400_000).toISOString(),
        status: "saved" as const,
      })),
    );
  });
  afterAll(async () => t.cleanup());
  afterEach(() => vi.restoreAllMocks());

  it("sends the main thread one page of rows, not every candidate to weigh", async () => {
    const query = vi.spyOn(SqliteReadPool.prototype, "query");
    const result = await repo.search({ userId, savedOnly: false }, searchTokens("garden"), 2);
    expect(result.total).toBe(MATCHES);
    expect(result.rows).toHaveLength(PAGE_SIZE);
    const crossed = await Promise.all(query.mock.results.map((each) => each.value));
    expect(crossed.length).toBeGreaterThan(0);
    for (const rows of crossed) expect((rows as unknown[]).length).toBeLessThanOrEqual(PAGE_SIZE);
  });

  it("pages through the candidates in relevance order, newest recorded first among equals", async () => {
    const tokens = searchTokens("garden");
    const scope = { userId, savedOnly: false };
    const all = await t.handle.db
      .selectFrom("memories")
      .select(["id", "seq", "title", "tags", "summary", "recorded_at"])
      .where("user_id", "=", userId)
      .where("transcript", "like", "%garden%")
      .execute();
    const expected = all
      .map((row) => ({ row, score: relevance(row, tokens) }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          b.row.recorded_at.localeCompare(a.row.recorded_at) ||
          b.row.seq - a.row.seq,
      )
      .map((each) => each.row.id);
    const listed: string[] = [];
    for (let page = 1; page <= Math.ceil(MATCHES / PAGE_SIZE) + 1; page++) {
      const result = await repo.search(scope, tokens, page);
      expect(result.total).toBe(MATCHES);
      listed.push(...result.rows.map((row) => row.id));
    }
    expect(expected).toHaveLength(MATCHES);
    expect(listed).toEqual(expected);
    expect(MATCHES).toBeLessThan(SEARCH_RANK_LIMIT);
  });
});
