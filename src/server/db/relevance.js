// How SQLite's search ranks its candidates (ADR 0025), as a SQL function registered on every
// connection: the main one and each read worker's (ADR 0026), so a search is ranked where it is
// read and the main thread receives one page, not a thousand candidates to weigh.
// Plain JavaScript so the read worker (sqlite-read-worker.js) can load it without a TypeScript
// loader; relevance.d.ts gives TypeScript its types.

/** The SQL function's name: relevance(title, tags, summary, words), words joined by spaces. */
export const RELEVANCE_FUNCTION = "relevance";

/** The fields SQLite's ranking weighs, as PostgreSQL's weights A (10) and B (3). */
const RANKED_FIELDS = /** @type {const} */ ([
  ["title", 10],
  ["tags", 10],
  ["summary", 3],
]);

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * How often `word` starts a word of `text` (both lower case).
 * @param {string} text
 * @param {string} word
 */
function wordStarts(text, word) {
  let count = 0;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
    if (at === 0 || !WORD_CHARACTER.test(text.charAt(at - 1))) count += 1;
  }
  return count;
}

/**
 * A candidate's relevance: for each query word, the title, tags and summary add their weight
 * times a saturating share of the word's occurrences there (n / (n + 1.2), as BM25's term
 * frequency); every candidate matched every word somewhere, so a word found in none of them is in
 * the transcript, which weighs least. Not FTS5's bm25(): it reads every row of every user holding
 * each query word to weigh rare words, which made a common word cost as much as the whole
 * database (ADR 0025).
 * @param {{ title: string, tags: string, summary: string }} fields
 * @param {readonly string[]} words lower case, as searchTokens gives them
 */
export function relevance(fields, words) {
  let score = 0;
  for (const [field, weight] of RANKED_FIELDS) {
    const text = fields[field].toLowerCase();
    for (const word of words) {
      const hits = wordStarts(text, word);
      score += (weight * hits) / (hits + 1.2);
    }
  }
  return score;
}

/**
 * Registers relevance(title, tags, summary, words) on a better-sqlite3 connection; `words` is the
 * query's words joined by single spaces (a search word never holds one).
 * @param {import("better-sqlite3").Database} sqlite
 */
export function registerRelevanceFunction(sqlite) {
  sqlite.function(
    RELEVANCE_FUNCTION,
    { deterministic: true },
    (
      /** @type {unknown} */ title,
      /** @type {unknown} */ tags,
      /** @type {unknown} */ summary,
      /** @type {unknown} */ words,
    ) =>
      relevance(
        { title: String(title ?? ""), tags: String(tags ?? ""), summary: String(summary ?? "") },
        String(words ?? "")
          .split(" ")
          .filter(Boolean),
      ),
  );
}
