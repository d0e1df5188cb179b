import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE } from "../../shared/constants";
import { ownedPrefixQuery } from "../db/search-words";
import { newId, nowIso } from "../ids";
import { createBareUser } from "../test/auth-helpers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../test/harness";
import { MemoriesRepo } from "./memories.repo";
import { toMemoryDto } from "./memory-dto";
import { SEARCH_RANK_LIMIT, searchTokens } from "./memory-search";

function newUser(t: TestDatabase) {
  return createBareUser(t.handle.db);
}

/** Memories recorded one minute apart, the last one newest. */
async function seed(repo: MemoriesRepo, userId: string, count: number) {
  const start = Date.parse("2024-01-01T00:00:00.000Z");
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await repo.insert({
      userId,
      audioId: null,
      title: `Memory ${i}`,
      recordedAt: new Date(start + i * 60_000).toISOString(),
      status: "saved",
    });
    ids.push(row.id);
  }
  return ids;
}

describe("searchTokens", () => {
  it("keeps only lower-case words of letters and digits", () => {
    expect(searchTokens(`Grandfather's "beach" (day) OR NOT* -x ^y 😀 NEAR(a b)`)).toEqual([
      "grandfather",
      "s",
      "beach",
      "day",
      "or",
      "not",
      "x",
      "y",
      "near",
      "a",
      "b",
    ]);
    expect(searchTokens("  ()\"'*:&|!  ")).toEqual([]);
    expect(searchTokens("Über straße 42")).toEqual(["über", "straße", "42"]);
  });
});

describe.each(DATABASE_KINDS)("MemoriesRepo on %s", (kind) => {
  let t: TestDatabase;
  let repo: MemoriesRepo;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    repo = new MemoriesRepo(t.handle.db, t.handle.kind);
  });
  afterAll(async () => t.cleanup());

  it("maps a row to the shared Memory shape", async () => {
    const user = await newUser(t);
    const audioId = newId();
    await t.handle.db
      .insertInto("audio_files")
      .values({
        id: audioId,
        storage_key: `${audioId}.mp3`,
        content_type: "audio/mpeg",
        bytes: 10,
        owner_user_id: user.id,
        owner_anon_hash: null,
        created_at: nowIso(),
      })
      .execute();
    const row = await repo.insert({
      userId: user.id,
      audioId,
      title: "A day",
      transcript: "t",
      summary: "s",
      scores: { cuteness: 9 },
      duration: 3.5,
      recordedAt: "2024-05-01T10:00:00.000Z",
      tags: ["beach"],
      status: "saved",
    });
    expect(toMemoryDto(row)).toEqual({
      id: row.id,
      user_id: user.id,
      title: "A day",
      audioUrl: `/api/audio/${audioId}`,
      transcript: "t",
      summary: "s",
      scores: {
        meaningfulness: 5,
        cuteness: 9,
        excitement: 5,
        interest: 5,
        uniqueness: 5,
        overall: 5,
      },
      duration: 3.5,
      recordedAt: "2024-05-01T10:00:00.000Z",
      tags: ["beach"],
      status: "saved",
      stage: null,
      error: null,
      question: null,
      language: null,
      photos: [],
      journalId: null,
      storyteller: null,
      createdAt: row.created_at,
    });
    const processing = await repo.insert({ userId: null, audioId: null, status: "processing" });
    expect(toMemoryDto(processing).audioUrl).toBe("");
    expect(Object.keys(processing)).not.toContain("search_vector");
  });

  it.each([15, 16, 30, 31])("pages %i memories by 15, newest recorded first", async (count) => {
    const user = await newUser(t);
    const ids = await seed(repo, user.id, count);
    const newestFirst = [...ids].reverse();
    const pages = Math.ceil(count / PAGE_SIZE);
    const seen: string[] = [];
    for (let page = 1; page <= pages + 1; page++) {
      const result = await repo.list({ userId: user.id, savedOnly: false }, page);
      expect(result.total).toBe(count);
      const expected = page <= pages ? Math.min(PAGE_SIZE, count - (page - 1) * PAGE_SIZE) : 0;
      expect(result.rows).toHaveLength(expected);
      seen.push(...result.rows.map((row) => row.id));
    }
    expect(seen).toEqual(newestFirst);
  });

  it("inserts many memories at once, indexed for search", async () => {
    const user = await newUser(t);
    await repo.insertMany(
      Array.from({ length: 1200 }, (_, i) => ({
        userId: user.id,
        audioId: null,
        title: i === 1100 ? "Lighthouse trip" : `Bulk ${i}`,
        status: "saved" as const,
      })),
    );
    expect((await repo.list({ userId: user.id, savedOnly: true }, 1)).total).toBe(1200);
    const found = await repo.search({ userId: user.id, savedOnly: true }, ["lighth"], 1);
    expect(found.rows.map((row) => row.title)).toEqual(["Lighthouse trip"]);
  });

  it("pages memories recorded at the same moment by seq, from either end alike", async () => {
    const user = await newUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 47; i++) {
      const at = `2024-02-0${1 + Math.floor(i / 10)}T00:00:00.000Z`;
      ids.push(
        (await repo.insert({ userId: user.id, audioId: null, recordedAt: at, status: "saved" })).id,
      );
    }
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      seen.push(
        ...(await repo.list({ userId: user.id, savedOnly: false }, page)).rows.map((r) => r.id),
      );
    }
    // Newest day first; within a day, the later insert first.
    expect(seen).toEqual([...ids].reverse());
  });

  it("keeps each user's month counts in step with inserts, status changes, edits, claims and deletes", async () => {
    const user = await newUser(t);
    const other = await newUser(t);
    const counts = async (userId: string) => ({
      total: await repo.countOf({ userId, savedOnly: false }),
      saved: await repo.countOf({ userId, savedOnly: true }),
    });
    // The counts must equal a real count of the rows, whatever happened to them.
    const actual = async (userId: string) => {
      const rows = await t.handle.db
        .selectFrom("memories")
        .select("status")
        .where("user_id", "=", userId)
        .execute();
      return { total: rows.length, saved: rows.filter((r) => r.status === "saved").length };
    };
    const monthsOf = async (userId: string) =>
      (await repo.months({ userId, savedOnly: false })).map((m) => `${m.month}:${m.count}`);
    expect(await counts(user.id)).toEqual({ total: 0, saved: 0 });
    const processing = await repo.insert({ userId: user.id, audioId: null, status: "processing" });
    const saved = await repo.insert({ userId: user.id, audioId: null, status: "saved" });
    await repo.insert({ userId: other.id, audioId: null, status: "saved" });
    expect(await counts(user.id)).toEqual({ total: 2, saved: 1 });
    expect(await repo.markSaved(processing.id)).toBe(true);
    expect(await counts(user.id)).toEqual({ total: 2, saved: 2 });
    // An edit (title, tags) changes no count; one of recorded_at moves a memory to its month.
    const edit = { title: "x", transcript: "", summary: "", tags: [] };
    await repo.update(saved.id, { ...edit, recordedAt: nowIso() });
    expect(await counts(user.id)).toEqual({ total: 2, saved: 2 });
    await repo.update(saved.id, { ...edit, recordedAt: "1999-12-31T23:00:00.000Z" });
    expect(await counts(user.id)).toEqual({ total: 2, saved: 2 });
    expect(await monthsOf(user.id)).toEqual([`${nowIso().slice(0, 7)}:1`, "1999-12:1"]);

    const now = new Date();
    const anonymous = await repo.insert({
      userId: null,
      anonOwnerHash: "visitor",
      claimExpiresAt: new Date(now.getTime() + 60_000).toISOString(),
      audioId: null,
      title: "Claimed lighthouse",
      status: "failed",
    });
    expect(await counts(user.id)).toEqual({ total: 2, saved: 2 });
    await t.handle.db
      .transaction()
      .execute((trx) => repo.claim(anonymous.id, user.id, "visitor", now, trx));
    expect(await counts(user.id)).toEqual({ total: 3, saved: 2 });

    // The claimed memory is now found by its new owner's search (the index follows user_id).
    const found = await repo.search({ userId: user.id, savedOnly: false }, ["lighthouse"], 1);
    expect(found.rows.map((row) => row.id)).toEqual([anonymous.id]);

    await t.handle.db.transaction().execute((trx) => repo.delete(saved.id, trx));
    expect(await counts(user.id)).toEqual({ total: 2, saved: 1 });
    expect(await counts(user.id)).toEqual(await actual(user.id));
    expect(await counts(other.id)).toEqual({ total: 1, saved: 1 });

    await t.handle.db.transaction().execute((trx) => repo.deleteAllOfUser(user.id, trx));
    expect(await counts(user.id)).toEqual({ total: 0, saved: 0 });
    expect(await monthsOf(user.id)).toEqual([]);
    // Deleting the user removes their month rows with them (and leaves others alone).
    await t.handle.db.deleteFrom("users").where("id", "=", other.id).execute();
    expect(await counts(other.id)).toEqual({ total: 0, saved: 0 });
    const left = await t.handle.db
      .selectFrom("memory_months")
      .select("user_id")
      .distinct()
      .where("user_id", "in", [user.id, other.id])
      .execute();
    expect(left.map((r) => r.user_id)).toEqual([user.id]);
  });

  it("ranks only the newest SEARCH_RANK_LIMIT matches of a query matching more", async () => {
    const user = await newUser(t);
    const count = SEARCH_RANK_LIMIT + 150;
    await repo.insertMany(
      Array.from({ length: count }, (_, i) => ({
        userId: user.id,
        audioId: null,
        title:
          i === 0
            ? "Oldest walk to the lighthouse"
            : i === count - 1
              ? "Newest lighthouse"
              : `Walk ${i}`,
        transcript: "we went for a walk",
        status: "saved" as const,
      })),
    );
    const scope = { userId: user.id, savedOnly: false };
    const broad = await repo.search(scope, ["walk"], 1);
    expect(broad.total).toBe(SEARCH_RANK_LIMIT);
    expect(broad.rows).toHaveLength(PAGE_SIZE);
    // Past the last page of the bounded matches: no rows, the same total.
    const past = await repo.search(scope, ["walk"], Math.ceil(SEARCH_RANK_LIMIT / PAGE_SIZE) + 1);
    expect(past).toEqual({ rows: [], total: SEARCH_RANK_LIMIT });
    // A selective query is ranked over all its matches, however old.
    const selective = await repo.search(scope, ["lighth"], 1);
    expect(selective.rows.map((r) => r.title)).toEqual([
      "Newest lighthouse",
      "Oldest walk to the lighthouse",
    ]);
    expect(selective.total).toBe(2);
  });

  describe("search beside other families", () => {
    /** The rows of `userId`'s memories_fts entries matching `word` (SQLite), read from the index itself. */
    const indexed = async (userId: string, word: string) =>
      (
        await sql<{ rowid: number }>`select rowid from memories_fts
          where memories_fts match ${ownedPrefixQuery(userId, [word])}`.execute(t.handle.db)
      ).rows.length;

    it("never shows another family's matches, nor lets them change the page or its total", async () => {
      const user = await newUser(t);
      const other = await newUser(t);
      const own = await seed(repo, user.id, 3);
      for (const id of own) {
        await repo.update(id, {
          title: "Garden in the rain",
          transcript: "",
          summary: "",
          recordedAt: "2024-01-01T00:00:00.000Z",
          tags: [],
        });
      }
      // More, newer matches for the other family than a search ranks.
      await repo.insertMany(
        Array.from({ length: SEARCH_RANK_LIMIT + 10 }, () => ({
          userId: other.id,
          audioId: null,
          title: "Garden in the rain",
          status: "saved" as const,
        })),
      );
      const mine = await repo.search({ userId: user.id, savedOnly: false }, ["garden", "rain"], 1);
      expect(mine.total).toBe(3);
      expect(mine.rows.map((row) => row.id).sort()).toEqual([...own].sort());
      const theirs = await repo.search({ userId: other.id, savedOnly: false }, ["gard"], 1);
      expect(theirs.total).toBe(SEARCH_RANK_LIMIT);
      expect(theirs.rows.every((row) => row.user_id === other.id)).toBe(true);
    });

    it("finds words with diacritics and in any alphabet, by prefix and in any case", async () => {
      const user = await newUser(t);
      const other = await newUser(t);
      const text = {
        audioId: null,
        title: "Γιαγιά's kitchen",
        transcript: "Бабушка laughed; ça été magnifique",
        tags: ["Straße", "niño"],
        status: "saved" as const,
      };
      const { id } = await repo.insert({ ...text, userId: user.id });
      await repo.insert({ ...text, userId: other.id });
      const search = async (query: string) =>
        (await repo.search({ userId: user.id, savedOnly: false }, searchTokens(query), 1)).rows.map(
          (row) => row.id,
        );
      for (const query of [
        "γιαγ",
        "ΓΙΑΓΙΆ",
        "бабу",
        "БАБУШКА",
        "été",
        "ÉTÉ",
        "straß",
        "niñ",
        "ça magn",
      ]) {
        expect(await search(query), query).toEqual([id]);
      }
      expect(await search("Бабушкин")).toEqual([]);
      if (kind === "sqlite") {
        // SQLite's index folds diacritics (PostgreSQL's 'simple' configuration does not), whether
        // the text came composed or decomposed.
        expect(await search("ete nino")).toEqual([id]);
        const decomposed = await repo.insert({
          userId: user.id,
          audioId: null,
          title: "Cafe\u0301 au lait",
          status: "saved",
        });
        expect(await search("café")).toEqual([decomposed.id]);
        expect(await search("cafe")).toEqual([decomposed.id]);
      }
    });

    it("drops a memory's words from the index when it or its owner's journal is deleted", async () => {
      const user = await newUser(t);
      const [first, second] = await seed(repo, user.id, 2);
      for (const id of [first, second]) {
        await repo.update(id as string, {
          title: "Orchard",
          transcript: "",
          summary: "",
          recordedAt: "2024-01-01T00:00:00.000Z",
          tags: [],
        });
      }
      const scope = { userId: user.id, savedOnly: false };
      expect((await repo.search(scope, ["orch"], 1)).total).toBe(2);
      if (kind === "sqlite") expect(await indexed(user.id, "orch")).toBe(2);
      await repo.delete(first as string, t.handle.db);
      expect((await repo.search(scope, ["orch"], 1)).rows.map((row) => row.id)).toEqual([second]);
      if (kind === "sqlite") expect(await indexed(user.id, "orch")).toBe(1);
      await repo.deleteAllOfUser(user.id, t.handle.db);
      expect((await repo.search(scope, ["orch"], 1)).total).toBe(0);
      if (kind === "sqlite") expect(await indexed(user.id, "orch")).toBe(0);
    });
  });

  it("lists only saved memories for a public scope", async () => {
    const user = await newUser(t);
    await repo.insert({ userId: user.id, audioId: null, status: "processing" });
    await repo.insert({ userId: user.id, audioId: null, status: "failed", error: "boom" });
    const saved = await repo.insert({ userId: user.id, audioId: null, status: "saved" });
    expect((await repo.list({ userId: user.id, savedOnly: false }, 1)).total).toBe(3);
    const visible = await repo.list({ userId: user.id, savedOnly: true }, 1);
    expect(visible.total).toBe(1);
    expect(visible.rows.map((row) => row.id)).toEqual([saved.id]);
  });

  describe("search", () => {
    let userId: string;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      userId = (await newUser(t)).id;
      const other = await newUser(t);
      const make = async (key: string, fields: Parameters<MemoriesRepo["insert"]>[0]) => {
        ids[key] = (await repo.insert(fields)).id;
      };
      await make("title", {
        userId,
        audioId: null,
        title: "Building castles at the beach",
        transcript: "we dug",
        status: "saved",
        recordedAt: "2024-01-01T00:00:00.000Z",
      });
      await make("transcript", {
        userId,
        audioId: null,
        title: "A morning",
        transcript: "Grandfather's boat went out past the castle rocks",
        status: "saved",
        recordedAt: "2024-01-02T00:00:00.000Z",
      });
      await make("summary", {
        userId,
        audioId: null,
        title: "Evening",
        summary: "My darling, the fireworks lit the sky",
        status: "saved",
        recordedAt: "2024-01-03T00:00:00.000Z",
      });
      await make("tags", {
        userId,
        audioId: null,
        title: "Lunch",
        tags: ["ice cream", "summer"],
        status: "processing",
        recordedAt: "2024-01-04T00:00:00.000Z",
      });
      await repo.insert({
        userId: other.id,
        audioId: null,
        title: "Sandcastles of someone else",
        status: "saved",
      });
    });

    const search = async (query: string, savedOnly = false) =>
      (await repo.search({ userId, savedOnly }, searchTokens(query), 1)).rows.map((row) => row.id);

    it("matches title, transcript, summary and tags by prefix, only the user's own", async () => {
      expect(await search("castl")).toEqual([ids.title, ids.transcript]);
      expect(await search("grandfather")).toEqual([ids.transcript]);
      expect(await search("firework")).toEqual([ids.summary]);
      expect(await search("ice")).toEqual([ids.tags]);
      expect(await search("ice", true)).toEqual([]);
    });

    it("ranks a title match above a transcript match and requires every word", async () => {
      // Title weighs more than transcript, whatever the recorded order.
      expect((await search("castle"))[0]).toBe(ids.title);
      expect(await search("castle rocks")).toEqual([ids.transcript]);
      expect(await search("castle nothinglikethis")).toEqual([]);
    });

    it("counts every match", async () => {
      const result = await repo.search(
        { userId, savedOnly: false },
        searchTokens("castles OR castle"),
        1,
      );
      expect(result.total).toBe(0);
      const loose = await repo.search({ userId, savedOnly: false }, searchTokens("castl"), 1);
      expect(loose.total).toBe(2);
    });

    it.each([
      `"`,
      `grandfather's (beach`,
      `"unterminated`,
      `a AND OR NOT b`,
      `NEAR(castle sand, 2)`,
      `title:castle`,
      `castle*`,
      `-castle`,
      `^castle`,
      `!@#$%^&*()_+{}|:"<>?`,
      `castle & | ! <-> :*`,
      `😀🏖️ castle`,
      `'); drop table memories; --`,
      "\u0000\u0001 castle",
      "x".repeat(10_000),
      "castle ".repeat(2_000),
    ])("survives hostile input %#", async (query) => {
      await expect(search(query)).resolves.toBeInstanceOf(Array);
    });

    it("treats operators as plain words", async () => {
      expect(await search(`castle*`)).toEqual([ids.title, ids.transcript]);
      expect(await search(`"grandfather's" (boat`)).toEqual([ids.transcript]);
      expect(await search(`😀 fireworks`)).toEqual([ids.summary]);
    });

    it("keeps the index in step with edits", async () => {
      await repo.update(ids.summary as string, {
        title: "Picnic",
        transcript: "",
        summary: "",
        recordedAt: "2024-01-03T00:00:00.000Z",
        tags: ["kites"],
      });
      expect(await search("fireworks")).toEqual([]);
      expect(await search("kite")).toEqual([ids.summary]);
      expect(await search("picn")).toEqual([ids.summary]);
    });
  });

  it("deletes a memory once: a second delete of the same row reports false", async () => {
    const user = await newUser(t);
    const memory = await repo.insert({ userId: user.id, audioId: null, status: "saved" });
    const first = await t.handle.db
      .transaction()
      .execute(
        async (trx) => (await repo.findForDelete(memory.id, trx)) && repo.delete(memory.id, trx),
      );
    expect(first).toBe(true);
    expect(await repo.findById(memory.id)).toBeUndefined();
    expect(await t.handle.db.transaction().execute((trx) => repo.delete(memory.id, trx))).toBe(
      false,
    );
  });
});
