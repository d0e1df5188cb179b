import { describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import { createBareUser } from "../test/auth-helpers";
import { DATABASE_KINDS } from "../test/harness";
import { offsetPageIds, seedJournalWithTies, twoInstancesOn } from "../test/page-helpers";
import { MemoriesRepo, type MemoryScope, PAGE_ANCHOR_INTERVAL } from "./memories.repo";

describe.each(DATABASE_KINDS)("deep list pages on %s", (kind) => {
  // Another app instance on the same database: its own connection and repository.
  const on = twoInstancesOn(kind);

  function newUser() {
    return createBareUser(on.t.handle.db);
  }

  const seedWithTies = (userId: string) => seedJournalWithTies(on.repo, userId);

  const offsetPage = (scope: MemoryScope, page: number) =>
    offsetPageIds(on.t.handle.db, scope, page);

  async function expectPagesLikeOffset(scope: MemoryScope, pages: readonly number[]) {
    for (const page of pages) {
      const listed = await on.repo.list(scope, page);
      // The walk a deep page starts runs after its answer: the pages after it use its anchors.
      await on.repo.anchorWalksSettled();
      expect({ page, ids: listed.rows.map((row) => row.id) }).toEqual({
        page,
        ids: await offsetPage(scope, page),
      });
    }
  }

  const pagesOf = async (scope: MemoryScope) =>
    Math.ceil((await on.repo.countOf(scope)) / PAGE_SIZE);

  it("reads every page of a journal with ties as a plain OFFSET does, in both scopes", async () => {
    const user = await newUser();
    await seedWithTies(user.id);
    for (const savedOnly of [false, true]) {
      const scope = { userId: user.id, savedOnly };
      const last = await pagesOf(scope);
      // Far enough from both ends that some pages are read from anchors in each half.
      expect(last * PAGE_SIZE).toBeGreaterThan(2 * PAGE_ANCHOR_INTERVAL + 2 * PAGE_SIZE);
      await expectPagesLikeOffset(
        scope,
        Array.from({ length: last + 1 }, (_, i) => i + 1),
      );
    }
  });

  it("sees every change made through another instance at the next deep page", async () => {
    const user = await newUser();
    await seedWithTies(user.id);
    const scopes = [false, true].map((savedOnly) => ({ userId: user.id, savedOnly }));
    // Every fifth page, then the page after each anchor in both halves: the cache is warm.
    const check = async () => {
      for (const scope of scopes) {
        const last = await pagesOf(scope);
        const pages = Array.from({ length: last }, (_, i) => i + 1).filter((p) => p % 5 === 2);
        await expectPagesLikeOffset(scope, pages);
      }
    };
    await check();
    const newest = "2030-01-01T00:00:00.000Z";

    // An insert at the newest end moves every later row one place.
    const inserted = await on.elsewhere.insert({
      userId: user.id,
      audioId: null,
      recordedAt: newest,
      status: "processing",
    });
    await check();
    // A status change moves it into the saved-only scope.
    expect(await on.elsewhere.markSaved(inserted.id)).toBe(true);
    await check();
    // An edit of recorded_at moves it from the newest end to the oldest.
    const edited = await on.elsewhere.update(inserted.id, {
      title: "Moved",
      transcript: "",
      summary: "",
      recordedAt: "2001-01-01T00:00:00.000Z",
      tags: [],
    });
    expect(edited).toMatchObject({ id: inserted.id });
    await check();
    // A claimed recording joins the user's list.
    const now = new Date();
    const anonymous = await on.elsewhere.insert({
      userId: null,
      anonOwnerHash: "visitor",
      claimExpiresAt: new Date(now.getTime() + 60_000).toISOString(),
      audioId: null,
      recordedAt: newest,
      status: "saved",
    });
    await check();
    const claimed = await on.second.db
      .transaction()
      .execute((trx) => on.elsewhere.claim(anonymous.id, user.id, "visitor", now, trx));
    expect(claimed).toBe(true);
    await check();
    // A delete moves every later row back one place.
    await on.second.db.transaction().execute((trx) => on.elsewhere.delete(anonymous.id, trx));
    await check();
  });

  it("walks on rightly from an anchor whose own row was deleted through another instance", async () => {
    const user = await newUser();
    await seedWithTies(user.id);
    const scope = { userId: user.id, savedOnly: false };
    // Page 21 starts at the second anchor (place 300): the anchors up to it are cached.
    const anchorPage = PAGE_ANCHOR_INTERVAL / PAGE_SIZE + 1;
    await expectPagesLikeOffset(scope, [anchorPage]);
    const [anchorRow] = await offsetPage(scope, anchorPage);
    if (!anchorRow) throw new Error("no anchor row");
    await on.second.db.transaction().execute((trx) => on.elsewhere.delete(anchorRow, trx));
    // The next anchor's page: its walk must not start from the deleted row's place.
    const nextAnchorPage = 2 * (PAGE_ANCHOR_INTERVAL / PAGE_SIZE) + 1;
    await expectPagesLikeOffset(scope, [nextAnchorPage, nextAnchorPage, nextAnchorPage + 1]);
  });

  it("answers deep pages asked at once of a cold repository rightly, then from the walks they started", async () => {
    const user = await newUser();
    await seedWithTies(user.id);
    const cold = new MemoriesRepo(on.t.handle.db, on.t.handle.kind);
    for (const savedOnly of [false, true]) {
      const scope = { userId: user.id, savedOnly };
      // Shallow and deep pages of each half at once: the deeper ones share a shorter walk.
      const pages = [22, 41, 42, 30, 60, 45, 50];
      // Cold, then from the anchors the first round's walks left, then from those walked on.
      for (let round = 0; round < 3; round++) {
        const listed = await Promise.all(pages.map((page) => cold.list(scope, page)));
        for (const [i, page] of pages.entries()) {
          expect({ round, page, ids: listed[i]?.rows.map((row) => row.id) }).toEqual({
            round,
            page,
            ids: await offsetPage(scope, page),
          });
        }
        await cold.anchorWalksSettled();
      }
    }
  });

  it("keeps one user's anchors apart from another's and from the other scope", async () => {
    const [first, other] = [await newUser(), await newUser()];
    await seedWithTies(first.id);
    await seedWithTies(other.id);
    for (const userId of [first.id, other.id, first.id]) {
      for (const savedOnly of [true, false]) {
        await expectPagesLikeOffset({ userId, savedOnly }, [25, 30, 40, 45]);
      }
    }
  });
});
