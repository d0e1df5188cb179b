import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../ids";
import { ownJournalId } from "../journals/journals.repo";
import { createTestDatabase, type TestDatabase } from "../test/harness";
import { indexedText, ownedPrefixQuery, wordsOf } from "./search-words";

describe("search words", () => {
  it("splits text into distinct lower-case words of letters and digits, NFC", () => {
    expect(wordsOf(`Ça "été" (été) Cafe\u0301 42nd_street 😀 Γιαγιά's`)).toEqual([
      "ça",
      "été",
      "café",
      "42nd",
      "street",
      "γιαγιά",
      "s",
    ]);
  });

  it("prefixes every word of every field with the journal", () => {
    const owner = Buffer.from("j1", "utf8").toString("hex");
    const fields = { title: "Rain, rain", tags: '["garden"]', summary: "", transcript: "" };
    expect(indexedText("j1", fields)).toEqual({
      title: `${owner}xrain ${owner}xrain`,
      tags: `${owner}xgarden`,
      summary: "",
      transcript: "",
    });
    expect(ownedPrefixQuery("j1", ["rain", "gar"])).toBe(`"${owner}xrain"* AND "${owner}xgar"*`);
  });

  describe("on SQLite", () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase("sqlite");
    });
    afterAll(async () => t.cleanup());

    it("has prefix indexes for one to eight letters after a journal id's owner part", async () => {
      // A word of one letter is as long as the shortest prefix index: if journal ids change
      // length, migration 0023's prefix lengths must change with them.
      const fields = { tags: "", summary: "", transcript: "" };
      const oneLetter = indexedText(ownJournalId(newId()), { ...fields, title: "a" }).title.length;
      const table = await sql<{ sql: string }>`select sql from sqlite_master
        where name = 'memories_fts'`.execute(t.handle.db);
      const lengths = Array.from({ length: 8 }, (_, i) => oneLetter + i).join(" ");
      expect(table.rows[0]?.sql).toContain(`prefix='${lengths}'`);
    });
  });
});
