import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import type { MemoryPage, MemoryYears } from "../../shared/schemas";
import { ownJournalId } from "../journals/journals.repo";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import { createTestApp, DATABASE_KINDS, type TestApp } from "../test/harness";
import { offsetPageIds } from "../test/page-helpers";
import { MemoriesRepo } from "./memories.repo";

/** The year navigator's data: years with counts and the page holding each one's newest memory. */
describe.each(DATABASE_KINDS)("memory years on %s", (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let visitor: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ kind, env: { WORKER_CONCURRENCY: "0" } });
    owner = await createUserWithSession(t, { isPublic: true });
    visitor = await createUserWithSession(t);
    // 2024: 20 (every fourth one failed), 2001: 31 over two months, 1998: 1.
    const at = (year: number, i: number) =>
      new Date(Date.UTC(year, i % 2 === 0 ? 2 : 7, 1 + (i % 27), 12)).toISOString();
    await new MemoriesRepo(t.database.db, t.database.kind).insertMany([
      ...Array.from({ length: 20 }, (_, i) => ({
        userId: owner.user.id,
        audioId: null,
        recordedAt: at(2024, i),
        status: i % 4 === 0 ? ("failed" as const) : ("saved" as const),
      })),
      ...Array.from({ length: 31 }, (_, i) => ({
        userId: owner.user.id,
        audioId: null,
        recordedAt: at(2001, i),
        status: "saved" as const,
      })),
      { userId: owner.user.id, audioId: null, recordedAt: at(1998, 0), status: "saved" as const },
    ]);
  });
  afterAll(async () => t?.cleanup());

  const get = (url: string, user?: TestUser) =>
    t.app.inject({ method: "GET", url, headers: user ? { cookie: user.cookie } : {} });

  it("lists the owner's years, newest first, and each page opens on that year's newest memory", async () => {
    const response = await get("/api/memories/years", owner);
    expect(response.statusCode).toBe(200);
    const { years } = response.json<MemoryYears>();
    expect(years).toEqual([
      { year: "2024", count: 20, page: 1 },
      { year: "2001", count: 31, page: Math.floor(20 / PAGE_SIZE) + 1 },
      { year: "1998", count: 1, page: Math.floor(51 / PAGE_SIZE) + 1 },
    ]);
    for (const { year, page } of years) {
      const listed = (await get(`/api/memories?page=${page}`, owner)).json<MemoryPage>();
      const ids = await offsetPageIds(
        t.database.db,
        { journalId: ownJournalId(owner.user.id), savedOnly: false },
        page,
      );
      expect(listed.items.map((memory) => memory.id)).toEqual(ids);
      // The first memory of the year is on this page, and the page before holds none of it.
      expect(listed.items.some((memory) => memory.recordedAt.startsWith(year))).toBe(true);
      if (page > 1) {
        const before = (await get(`/api/memories?page=${page - 1}`, owner)).json<MemoryPage>();
        expect(before.items.at(-1)?.recordedAt.startsWith(year)).toBe(false);
      }
    }
  });

  it("counts only saved memories on a profile, for anyone who may see it", async () => {
    const url = `/api/users/${owner.user.username}/memories/years`;
    for (const who of [visitor, undefined]) {
      const response = await get(url, who);
      expect(response.statusCode).toBe(200);
      expect(response.json<MemoryYears>().years).toEqual([
        { year: "2024", count: 15, page: 1 },
        { year: "2001", count: 31, page: 2 },
        { year: "1998", count: 1, page: 4 },
      ]);
    }
  });

  it("answers 404 for a private profile's years and 401 for your own when logged out", async () => {
    const hidden = await createUserWithSession(t, { isPublic: false });
    expect(
      (await get(`/api/users/${hidden.user.username}/memories/years`, visitor)).statusCode,
    ).toBe(404);
    expect((await get(`/api/users/${hidden.user.username}/memories/years`, hidden)).json()).toEqual(
      {
        years: [],
      },
    );
    expect((await get("/api/memories/years")).statusCode).toBe(401);
    expect((await get("/api/users/nobody-here/memories/years", visitor)).statusCode).toBe(404);
  });
});
