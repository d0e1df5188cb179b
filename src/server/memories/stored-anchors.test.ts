import { createQueryId, type Kysely, type KyselyPlugin, type RootOperationNode } from "kysely";
import { describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import type { DatabaseHandle } from "../db/connection";
import { LIST_CHANGES_KEPT } from "../db/migrations/0011-list-changes";
import type { Database } from "../db/schema";
import { createBareUser } from "../test/auth-helpers";
import { DATABASE_KINDS } from "../test/harness";
import {
  ANCHORED_JOURNAL,
  offsetPageIds,
  seedJournalWithTies,
  twoInstancesOn,
} from "../test/page-helpers";
import { MemoriesRepo, type MemoryScope, PAGE_ANCHOR_INTERVAL } from "./memories.repo";

/** Deep pages of both halves of ANCHORED_JOURNAL (pages 41 to 50 are read from the oldest end). */
const DEEP_PAGES = [22, 41, 45, 60, 50];

/**
 * A repository whose statements are recorded, compiled: what a page cost (a walk is the one
 * recursive statement; a deep OFFSET is a page query's last parameter).
 */
function recordingRepo(handle: DatabaseHandle) {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const db: Kysely<Database> = handle.db.withPlugin(plugin);
  const statements = () =>
    nodes.map((node) => db.getExecutor().compileQuery(node, createQueryId()));
  return {
    repo: new MemoriesRepo(db, handle.kind),
    walked: () => statements().some((query) => /with recursive/i.test(query.sql)),
    readChanges: () => statements().some((query) => /memory_list_changes/.test(query.sql)),
    /** The largest number of index entries a page query stepped over. */
    deepestOffset: () =>
      Math.max(
        0,
        ...statements()
          .filter((query) => /\boffset\b/i.test(query.sql) && !/recursive/i.test(query.sql))
          .map((query) => Number(query.parameters.at(-1))),
      ),
    forget: () => {
      nodes.length = 0;
    },
  };
}

describe.each(DATABASE_KINDS)("page anchors stored in the database on %s", (kind) => {
  // Another app instance on the same database: its own connection and repository.
  const on = twoInstancesOn(kind);

  /** A user with a journal of ANCHORED_JOURNAL memories, seven to a day (seedJournalWithTies). */
  async function newJournal() {
    const user = await createBareUser(on.t.handle.db);
    await seedJournalWithTies(on.repo, user.id);
    return user;
  }

  /** More new memories, at the newest end, through another instance, than the log keeps changes. */
  const insertPastTheLog = (userId: string) =>
    on.elsewhere.insertMany(
      Array.from({ length: LIST_CHANGES_KEPT + 5 }, (_, i) => ({
        userId,
        audioId: null,
        recordedAt: new Date(Date.UTC(2031, 0, 1) + i * 60_000).toISOString(),
        status: "saved" as const,
      })),
    );

  const scopesOf = (userId: string): MemoryScope[] =>
    [false, true].map((savedOnly) => ({ userId, savedOnly }));

  /** Walks the anchors of every deep page through `walker` and lets it store them. */
  async function walkAll(walker: MemoriesRepo, userId: string) {
    for (const scope of scopesOf(userId)) {
      for (const page of DEEP_PAGES) {
        await walker.list(scope, page);
        await walker.anchorWalksSettled();
      }
    }
  }

  async function expectPage(lister: MemoriesRepo, scope: MemoryScope, page: number) {
    const listed = await lister.list(scope, page);
    expect({ scope, page, ids: listed.rows.map((row) => row.id) }).toEqual({
      scope,
      page,
      ids: await offsetPageIds(on.t.handle.db, scope, page),
    });
  }

  const storedOf = (userId: string) =>
    on.t.handle.db
      .selectFrom("memory_page_anchors")
      .select(["scope", "revision"])
      .where("user_id", "=", userId)
      .orderBy("scope")
      .execute();

  it("serves another instance's first deep pages from the anchors the first stored, without a walk or a deep OFFSET", async () => {
    const user = await newJournal();
    // Control: a repository with nothing stored reads its first deep page by a deep OFFSET and
    // walks after it (the checks below can fail).
    const cold = recordingRepo(on.t.handle);
    await expectPage(cold.repo, { userId: user.id, savedOnly: false }, 45);
    await cold.repo.anchorWalksSettled();
    expect(cold.deepestOffset()).toBeGreaterThanOrEqual(PAGE_ANCHOR_INTERVAL);
    expect(cold.walked()).toBe(true);

    await walkAll(on.repo, user.id);
    // The saved-only scope is too short for any of these pages to be deep from its oldest end;
    // its page 41 is shallow from there, and prepares both directions after it.
    expect((await storedOf(user.id)).map((row) => row.scope)).toEqual([
      "all asc",
      "all desc",
      "saved asc",
      "saved desc",
    ]);
    const fresh = recordingRepo(on.second);
    for (const scope of scopesOf(user.id)) {
      for (const page of DEEP_PAGES) await expectPage(fresh.repo, scope, page);
    }
    await fresh.repo.anchorWalksSettled();
    expect(fresh.walked()).toBe(false);
    expect(fresh.readChanges()).toBe(false);
    expect(fresh.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
  });

  it("moves stored anchors on past inserts, deletes and recordedAt edits made through another instance", async () => {
    const user = await newJournal();
    await walkAll(on.repo, user.id);
    const scope = { userId: user.id, savedOnly: false };
    const newest = "2030-01-01T00:00:00.000Z";
    const inserted = await on.elsewhere.insert({
      userId: user.id,
      audioId: null,
      recordedAt: newest,
      status: "processing",
    });
    expect(await on.elsewhere.markSaved(inserted.id)).toBe(true);
    // An edit of recorded_at moves it from the newest end to the oldest.
    expect(
      await on.elsewhere.update(inserted.id, {
        title: "Moved",
        transcript: "",
        summary: "",
        recordedAt: "2001-01-01T00:00:00.000Z",
        tags: [],
      }),
    ).toMatchObject({ id: inserted.id });
    // A row from the middle of the newest half goes.
    const [gone] = await offsetPageIds(on.t.handle.db, scope, 10);
    if (!gone) throw new Error("no row to delete");
    await on.second.db.transaction().execute((trx) => on.elsewhere.delete(gone, trx));

    const fresh = recordingRepo(on.t.handle);
    for (const each of scopesOf(user.id)) {
      for (const page of DEEP_PAGES) await expectPage(fresh.repo, each, page);
    }
    // The pages came from the stored anchors moved on, not from offsets.
    expect(fresh.readChanges()).toBe(true);
    expect(fresh.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
    // Every page again once whatever walks those pages started have ended.
    await fresh.repo.anchorWalksSettled();
    for (const each of scopesOf(user.id)) {
      for (const page of DEEP_PAGES) await expectPage(fresh.repo, each, page);
    }
  });

  it(`drops stored anchors more than ${LIST_CHANGES_KEPT} changes behind, answers by offset, and stores the walk anew`, async () => {
    const user = await newJournal();
    await walkAll(on.repo, user.id);
    const before = await storedOf(user.id);
    await insertPastTheLog(user.id);
    const scope = { userId: user.id, savedOnly: false };
    const fresh = recordingRepo(on.t.handle);
    // Pages as deep in the newest half as before (the journal grew at that end).
    const pages = [22, 45, 60, 90];
    for (const page of pages) await expectPage(fresh.repo, scope, page);
    expect(fresh.readChanges()).toBe(false);
    expect(fresh.deepestOffset()).toBeGreaterThanOrEqual(PAGE_ANCHOR_INTERVAL);
    await fresh.repo.anchorWalksSettled();
    expect(fresh.walked()).toBe(true);
    const after = await storedOf(user.id);
    const revisionOf = (rows: typeof before) =>
      Number(rows.find((row) => row.scope === "all desc")?.revision);
    expect(revisionOf(after)).toBeGreaterThan(revisionOf(before) + LIST_CHANGES_KEPT);
    // A third instance now reads the new anchors without walking.
    const third = recordingRepo(on.second);
    for (const page of pages) await expectPage(third.repo, scope, page);
    await third.repo.anchorWalksSettled();
    expect(third.walked()).toBe(false);
    expect(third.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
  });

  it(`writes anchors moved on by ${LIST_CHANGES_KEPT / 2} changes or more back, so a later instance can use them`, async () => {
    const user = await newJournal();
    await walkAll(on.repo, user.id);
    const scope = { userId: user.id, savedOnly: false };
    // Spread over the journal's days, so no anchor drifts from the one before far enough to cut.
    const spread = () =>
      on.elsewhere.insertMany(
        Array.from({ length: LIST_CHANGES_KEPT / 2 + 5 }, (_, i) => ({
          userId: user.id,
          audioId: null,
          recordedAt: new Date(
            Date.UTC(2020, 0, 1) + (i % Math.floor(ANCHORED_JOURNAL / 7)) * 86_400_000,
          ).toISOString(),
          status: "saved" as const,
        })),
      );
    await spread();
    // The first instance moves its own anchors on (no walk) and writes them back after.
    await expectPage(on.repo, scope, 45);
    await on.repo.anchorWalksSettled();
    // Then more changes: with the anchors first stored, a new instance would be too far behind.
    await spread();
    const fresh = recordingRepo(on.second);
    await expectPage(fresh.repo, scope, 45);
    expect(fresh.readChanges()).toBe(true);
    expect(fresh.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
  });

  it("prepares a journal no instance has walked on its first page, so its first deep pages read without a walk or a deep OFFSET", async () => {
    const user = await newJournal();
    const fresh = recordingRepo(on.second);
    for (const scope of scopesOf(user.id)) await expectPage(fresh.repo, scope, 1);
    await fresh.repo.anchorWalksSettled();
    // The preparation after page 1 walked both halves of both scopes and stored them.
    expect(fresh.walked()).toBe(true);
    expect((await storedOf(user.id)).map((row) => row.scope)).toEqual([
      "all asc",
      "all desc",
      "saved asc",
      "saved desc",
    ]);
    fresh.forget();
    for (const scope of scopesOf(user.id)) {
      for (const page of DEEP_PAGES) await expectPage(fresh.repo, scope, page);
    }
    await fresh.repo.anchorWalksSettled();
    expect(fresh.walked()).toBe(false);
    expect(fresh.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
    // Another instance's page 1 reads the stored anchors back instead of walking again.
    const third = recordingRepo(on.t.handle);
    await expectPage(third.repo, { userId: user.id, savedOnly: false }, 1);
    await third.repo.anchorWalksSettled();
    expect(third.walked()).toBe(false);
    for (const page of DEEP_PAGES)
      await expectPage(third.repo, { userId: user.id, savedOnly: false }, page);
    expect(third.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
  });

  it(`walks anew on page 1 when the stored anchors are more than ${LIST_CHANGES_KEPT} changes behind (a restore), before any deep page asks`, async () => {
    const user = await newJournal();
    await walkAll(on.repo, user.id);
    await insertPastTheLog(user.id);
    const scope = { userId: user.id, savedOnly: false };
    const fresh = recordingRepo(on.t.handle);
    await expectPage(fresh.repo, scope, 1);
    await fresh.repo.anchorWalksSettled();
    expect(fresh.walked()).toBe(true);
    fresh.forget();
    for (const page of [22, 45, 60, 90]) await expectPage(fresh.repo, scope, page);
    await fresh.repo.anchorWalksSettled();
    expect(fresh.walked()).toBe(false);
    expect(fresh.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
  });

  it("walks, at start-up, the journals no instance has walked, so a deep page opened before any page 1 needs no walk or deep OFFSET", async () => {
    // Journals of the tests before this one, walked or not, first.
    await on.repo.prepareUnwalkedJournals();
    const user = await newJournal();
    const small = await createBareUser(on.t.handle.db);
    await on.repo.insertMany(
      Array.from({ length: 2 * PAGE_ANCHOR_INTERVAL - 1 }, () => ({
        userId: small.id,
        audioId: null,
        status: "saved" as const,
      })),
    );
    const starting = recordingRepo(on.second);
    // Both directions of both scopes of the new journal; the small one has no deep pages.
    expect(await starting.repo.prepareUnwalkedJournals()).toBe(4);
    expect(await storedOf(small.id)).toEqual([]);
    expect(await starting.repo.prepareUnwalkedJournals()).toBe(0);

    const fresh = recordingRepo(on.t.handle);
    for (const scope of scopesOf(user.id)) {
      for (const page of DEEP_PAGES) await expectPage(fresh.repo, scope, page);
    }
    await fresh.repo.anchorWalksSettled();
    expect(fresh.walked()).toBe(false);
    expect(fresh.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);

    // Changed past the log (a restore, say): walked again at the next run.
    await insertPastTheLog(user.id);
    expect(await starting.repo.prepareUnwalkedJournals()).toBe(4);
    const later = recordingRepo(on.t.handle);
    for (const page of [22, 45, 60, 90]) {
      await expectPage(later.repo, { userId: user.id, savedOnly: false }, page);
    }
    expect(later.deepestOffset()).toBeLessThan(PAGE_ANCHOR_INTERVAL);
  });

  it("deletes a user's stored anchors with the user", async () => {
    const user = await newJournal();
    await walkAll(on.repo, user.id);
    expect(await storedOf(user.id)).toHaveLength(4);
    await on.t.handle.db.deleteFrom("users").where("id", "=", user.id).execute();
    expect(await storedOf(user.id)).toEqual([]);
  });

  it("keeps one user's stored anchors apart from another's", async () => {
    const [first, other] = [await newJournal(), await newJournal()];
    await walkAll(on.repo, first.id);
    await walkAll(on.repo, other.id);
    const fresh = recordingRepo(on.second);
    for (const userId of [first.id, other.id]) {
      for (const scope of scopesOf(userId)) {
        for (const page of [...DEEP_PAGES, Math.ceil(ANCHORED_JOURNAL / PAGE_SIZE)]) {
          await expectPage(fresh.repo, scope, page);
        }
      }
    }
    expect(fresh.walked()).toBe(false);
  });
});
