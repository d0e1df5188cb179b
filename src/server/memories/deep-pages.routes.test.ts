import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryPage } from "../../shared/schemas";
import { loadConfig } from "../config";
import { type DatabaseHandle, openDatabase } from "../db/connection";
import { ownJournalId } from "../journals/journals.repo";
import { createAudioStorage } from "../storage/storage-factory";
import { createUserWithSession, type TestUser } from "../test/auth-helpers";
import {
  buildAppOn,
  createTestApp,
  DATABASE_KINDS,
  makeTempDir,
  type TestApp,
} from "../test/harness";
import { offsetPageIds } from "../test/page-helpers";
import { MemoriesRepo, type MemoryScope } from "./memories.repo";

/** Deep pages read by one instance after changes made through another (ADR 0036). */
describe.each(DATABASE_KINDS)("deep list pages over HTTP, two instances on %s", (kind) => {
  let a: TestApp;
  let bDatabase: DatabaseHandle;
  let b: Awaited<ReturnType<typeof buildAppOn>>;
  let owner: TestUser;
  beforeAll(async () => {
    a = await createTestApp({ kind, env: { WORKER_CONCURRENCY: "0" } });
    const bConfig = loadConfig({
      DATA_DIR: await makeTempDir("vmj-data-b-"),
      NODE_ENV: "test",
      WORKER_CONCURRENCY: "0",
    });
    bDatabase = await openDatabase(a.databaseTarget);
    b = await buildAppOn({
      config: bConfig,
      database: bDatabase,
      storage: createAudioStorage(bConfig.storage),
    });
    await b.ready();
    owner = await createUserWithSession(a, { isPublic: true });
    // 81 pages over 20 months, a third of them not saved, recorded two to a day (ties).
    await new MemoriesRepo(a.database.db, a.database.kind).insertMany(
      Array.from({ length: 1211 }, (_, i) => ({
        userId: owner.user.id,
        audioId: null,
        title: `Memory ${i}`,
        recordedAt: new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 2) * 86_400_000).toISOString(),
        status: i % 3 === 0 ? ("failed" as const) : ("saved" as const),
      })),
    );
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.cleanup();
  });

  const offsetPage = (scope: MemoryScope, page: number) =>
    offsetPageIds(a.database.db, scope, page);

  /** Deep pages of the owner's list and of the public profile, through instance A. */
  async function expectDeepPagesLikeOffset() {
    for (const [savedOnly, url] of [
      [false, "/api/memories"],
      [true, `/api/users/${owner.user.username}/memories`],
    ] as const) {
      for (const page of [22, 30, 40, 48, 60]) {
        const response = await a.app.inject({
          method: "GET",
          url: `${url}?page=${page}`,
          headers: { cookie: owner.cookie },
        });
        expect(response.statusCode).toBe(200);
        const ids = response.json<MemoryPage>().items.map((memory) => memory.id);
        expect({ savedOnly, page, ids }).toEqual({
          savedOnly,
          page,
          ids: await offsetPage({ journalId: ownJournalId(owner.user.id), savedOnly }, page),
        });
      }
    }
  }

  it("serves the right deep pages after an edit and a delete made through the other instance", async () => {
    await expectDeepPagesLikeOffset();
    const newest = (
      await a.app.inject({ method: "GET", url: "/api/memories", headers: { cookie: owner.cookie } })
    ).json<MemoryPage>().items[0];
    if (!newest) throw new Error("no memories");
    // B moves the newest memory to the oldest end: every page of the newer half moves by one.
    const edited = await b.inject({
      method: "PUT",
      url: `/api/memories/${newest.id}`,
      headers: { cookie: owner.cookie },
      payload: {
        title: newest.title,
        transcript: newest.transcript,
        summary: newest.summary,
        recordedAt: "2001-01-01T00:00:00.000Z",
        tags: newest.tags,
      },
    });
    expect(edited.statusCode).toBe(200);
    await expectDeepPagesLikeOffset();
    const deleted = await b.inject({
      method: "DELETE",
      url: `/api/memories/${newest.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    await expectDeepPagesLikeOffset();
  });
});
