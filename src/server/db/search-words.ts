import type SqliteDatabase from "better-sqlite3";

/**
 * SQLite's full-text index holds each word of a memory prefixed by its owner (ADR 0029):
 * `<hex of the user id>x<word>`. A user's words then have lists of their own, and one family's
 * search reads only that family's entries, however many other families share the server.
 */

/** The SQL function the full-text triggers call (migration 0010); its name is part of the schema. */
export const SEARCH_WORDS_FUNCTION = "memory_search_words";

/** Between the owner's hex and the word: not a hex digit, so no owner's token starts another's. */
const OWNER_SEPARATOR = "x";

/** A word as search sees it: a run of letters and digits (the same split for queries and rows). */
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of `text`, NFC and lower case, each once, in order of first appearance. */
export function wordsOf(text: string): string[] {
  return [...new Set(text.normalize("NFC").toLowerCase().match(WORD) ?? [])];
}

/** The owner part of an indexed word: the hex of the user id, then the separator. */
function ownerPrefix(userId: string): string {
  return `${Buffer.from(userId, "utf8").toString("hex")}${OWNER_SEPARATOR}`;
}

/**
 * The text memories_fts indexes for one memory: every distinct word of its fields, owner-prefixed,
 * separated by spaces. A memory without an owner (not yet claimed) is not searchable: empty.
 */
export function ownedWords(userId: string | null, ...fields: (string | null)[]): string {
  if (userId === null) return "";
  const prefix = ownerPrefix(userId);
  const words = new Set(fields.flatMap((field) => (field === null ? [] : wordsOf(field))));
  return [...words].map((word) => `${prefix}${word}`).join(" ");
}

/**
 * The FTS5 query for one user's search: each query word as a prefix of that user's words, all
 * required. Tokens are letters and digits and the owner part is hex, so quoting them is safe.
 */
export function ownedPrefixQuery(userId: string, tokens: readonly string[]): string {
  const prefix = ownerPrefix(userId);
  return tokens.map((token) => `"${prefix}${token}"*`).join(" AND ");
}

/**
 * Registers the function the full-text triggers call. Every connection that writes memories must
 * have it (an insert without it fails with "no such function", changing nothing); read-only
 * connections never run triggers and do not need it.
 */
export function registerSearchWordsFunction(sqlite: SqliteDatabase.Database): void {
  sqlite.function(
    SEARCH_WORDS_FUNCTION,
    { deterministic: true, varargs: true },
    (userId: unknown, ...fields: unknown[]) =>
      ownedWords(
        typeof userId === "string" ? userId : null,
        ...fields.map((field) => (typeof field === "string" ? field : null)),
      ),
  );
}
