/**
 * SQLite's full-text index holds each word of a memory prefixed by its journal (ADR 0029, 0036,
 * 0057): `<hex of the journal id>x<word>`. A journal's words then have lists of their own, and one family's
 * search reads only that family's entries, however many other families share the server. The
 * words are computed here, in TypeScript, by whoever writes the index (the search and migration
 * 0013), never by a trigger: the database stays writable by tools that know nothing of the app.
 */

/** Between the owner's hex and the word: not a hex digit, so no owner's token starts another's. */
const OWNER_SEPARATOR = "x";

/** A word as search sees it: a run of letters and digits (the same split for queries and rows). */
const WORD = /[\p{L}\p{N}]+/gu;

/** Every word of `text` in order (repeats kept: ranking counts them), NFC and lower case. */
function allWordsOf(text: string): string[] {
  return text.normalize("NFC").toLowerCase().match(WORD) ?? [];
}

/** The words of `text`, NFC and lower case, each once, in order of first appearance. */
export function wordsOf(text: string): string[] {
  return [...new Set(allWordsOf(text))];
}

/** The owner part of an indexed word: the hex of the journal id, then the separator. */
function ownerPrefix(ownerId: string): string {
  return `${Buffer.from(ownerId, "utf8").toString("hex")}${OWNER_SEPARATOR}`;
}

/** What a memory's row holds that search reads. */
export interface SearchableFields {
  seq: number;
  journal_id: string | null;
  title: string;
  tags: string;
  summary: string;
  transcript: string;
}

/** The indexed columns of memories_fts, in order (ranking weighs them in this order). */
export const INDEXED_COLUMNS = ["title", "tags", "summary", "transcript"] as const;

/**
 * The text memories_fts indexes for one memory, column by column: every word prefixed by
 * `ownerId` (its journal), separated by spaces. A memory not yet claimed is not indexed.
 */
export function indexedText(
  ownerId: string,
  row: Pick<SearchableFields, (typeof INDEXED_COLUMNS)[number]>,
): Record<(typeof INDEXED_COLUMNS)[number], string> {
  const prefix = ownerPrefix(ownerId);
  const owned = (text: string) =>
    allWordsOf(text)
      .map((word) => `${prefix}${word}`)
      .join(" ");
  return {
    title: owned(row.title),
    tags: owned(row.tags),
    summary: owned(row.summary),
    transcript: owned(row.transcript),
  };
}

/**
 * The FTS5 query for one journal's search: each query word as a prefix of that journal's words,
 * all required. Tokens are letters and digits and the owner part is hex, so quoting them is safe.
 */
export function ownedPrefixQuery(journalId: string, tokens: readonly string[]): string {
  const prefix = ownerPrefix(journalId);
  return tokens.map((token) => `"${prefix}${token}"*`).join(" AND ");
}
