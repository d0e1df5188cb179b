import { describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import { ownJournalId, ownMemberId } from "../journals/journals.repo";
import { createBareUser } from "../test/auth-helpers";
import { DATABASE_KINDS } from "../test/harness";
import { offsetPageIds, seedJournalWithTies, twoInstancesOn } from "../test/page-helpers";
import type { MemoryScope } from "./memories.repo";

/** Numbered pages against the oracle, a plain OFFSET over the whole scope (ADR 0036). */
describe.each(DATABASE_KINDS)("list pages on %s", (kind) => {
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
      const scope = { journalId: ownJournalId(user.id), savedOnly };
      const last = await pagesOf(scope);
      // Many months, so most pages start inside a month and some span two.
      expect((await on.repo.months(scope)).length).toBeGreaterThan(5);
      await expectPagesLikeOffset(
        scope,
        Array.from({ length: last + 1 }, (_, i) => i + 1),
      );
    }
  });

  it("sees every change made through another instance at the next deep page", async () => {
    const user = await newUser();
    await seedWithTies(user.id);
    const scopes = [false, true].map((savedOnly) => ({
      journalId: ownJournalId(user.id),
      savedOnly,
    }));
    // Every fifth page of each scope.
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
    // An edit of recorded_at moves it from the newest end (and month) to the oldest.
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
    const claimed = await on.second.db.transaction().execute((trx) =>
      on.elsewhere.claim(
        anonymous.id,
        {
          userId: user.id,
          journalId: ownJournalId(user.id),
          storytellerId: ownMemberId(user.id),
        },
        "visitor",
        now,
        trx,
      ),
    );
    expect(claimed).toBe(true);
    await check();
    // A delete moves every later row back one place.
    await on.second.db.transaction().execute((trx) => on.elsewhere.delete(anonymous.id, trx));
    await check();
  });

  it("keeps one user's pages apart from another's and from the other scope", async () => {
    const [first, other] = [await newUser(), await newUser()];
    await seedWithTies(first.id);
    await seedWithTies(other.id);
    for (const userId of [first.id, other.id, first.id]) {
      for (const savedOnly of [true, false]) {
        await expectPagesLikeOffset(
          { journalId: ownJournalId(userId), savedOnly },
          [25, 30, 40, 45],
        );
      }
    }
  });
});
