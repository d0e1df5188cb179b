import {
  type Analysis,
  addressesChild,
  joinWords,
  pickTopics,
  type Sentence,
  splitWords,
  type Topic,
} from "./analyse";
import {
  CLOSINGS,
  LEADING_FILLERS,
  LEADING_TIME_WORDS,
  LEXICON,
  type LocalLanguage,
  SAYS_LOVE,
  SUBJECTS,
} from "./languages";

/** About what a phone's list shows on two lines. */
const TITLE_MAX_WORDS = 12;
const BODY_MAX_WORDS = 18;
const BODY_SENTENCES = 2;

function capitalise(text: string, language: LocalLanguage): string {
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}

/** Ends a sentence with its own punctuation, or a full stop (Chinese: "。"). */
function withStop(text: string, language: LocalLanguage): string {
  const trimmed = text.trim().replace(/[,;:\-–，；：、،؛]+$/, "");
  if (/[.!?…。！？؟]$/.test(trimmed)) return trimmed;
  return `${trimmed}${language === "zh" ? "。" : "."}`;
}

/** Drops "So,", "And then", "Um" from the front; with `dropTime`, "Today" too (titles). */
function cleanOpening(text: string, language: LocalLanguage, dropTime: boolean): string {
  let words = splitWords(text.trim(), language);
  const bare = (w: string | undefined) =>
    (w ?? "")
      .toLowerCase()
      .replace(/’/g, "'")
      .replace(/[^\p{L}']/gu, "");
  const subjects = SUBJECTS[language];
  for (let changed = true; changed && words.length > 3; ) {
    changed = false;
    if (LEADING_FILLERS[language].has(bare(words[0]))) {
      words = words.slice(1);
      changed = true;
      continue;
    }
    if (!dropTime) continue;
    for (const time of LEADING_TIME_WORDS[language]) {
      const parts = time.split(" ");
      if (!parts.every((p, i) => bare(words[i]) === p)) continue;
      // Chinese: "今天，我们" -> the comma goes with the time word.
      const after = /^[，、]$/.test(words[parts.length] ?? "") ? parts.length + 1 : parts.length;
      const next = bare(words[after]).split("'")[0] ?? "";
      // "Today we went" -> "We went"; "Yesterday was your birthday" keeps its subject-less start.
      if (subjects && !subjects.has(next)) continue;
      words = words.slice(parts.length);
      changed = true;
      break;
    }
  }
  let result = joinWords(words, language).replace(/^[,;:\s，、،]+/, "");
  // The subject that followed a dropped word stays lowercase in the middle of the old sentence.
  if (language === "en") result = result.replace(/^i\b/, "I");
  return capitalise(result, language);
}

const CLAUSE_WORDS = new Set(
  `and but because y pero porque und aber weil et mais parce e mas 但是 可是 因为 然后 لكن ولكن
  لأن ثم`.split(/\s+/),
);
/** Words a cut sentence must not end on. */
const DANGLING = new Set(
  `to about of for with in on at the a an and but or from into my your his her our their that
  y o de del la el los las en con por para que un una und oder mit von zu zum zur der die das den
  dem des ein eine einen im am du le à au aux et ou pour avec dans sur qui mon ma mes ton ta tes
  son sa ses do da dos das em no na nos nas com um uma meu minha seu sua 的 在 和 跟 把 被 给 对 从
  到 是 في من إلى على عن مع أن`.split(/\s+/),
);

/**
 * A sentence of about `maxWords`: cut where a clause ends (a comma, "and", "but") when it runs
 * on; a sentence with no such place is kept whole up to a third longer, then cut, never left
 * ending on "to" or "about". `rest` is what followed a clause cut (a sentence of its own), "" else.
 */
function shorten(
  text: string,
  maxWords: number,
  language: LocalLanguage,
): { text: string; rest: string } {
  const words = splitWords(text, language);
  if (words.length <= maxWords) return { text, rest: "" };
  const join = (part: string[]) => joinWords(part, language);
  for (let i = maxWords - 1; i >= 5; i--) {
    const word = words[i] ?? "";
    const next = (words[i + 1] ?? "").toLowerCase();
    if (/[,;:，；：、،؛]$/.test(word) || CLAUSE_WORDS.has(next)) {
      return { text: join(words.slice(0, i + 1)), rest: join(words.slice(i + 1)) };
    }
  }
  const longest = Math.round(maxWords * 1.34);
  if (words.length <= longest) return { text, rest: "" };
  let cut = words.slice(0, longest);
  while (
    cut.length > 3 &&
    DANGLING.has((cut.at(-1) ?? "").toLowerCase().replace(/[^\p{L}]/gu, ""))
  ) {
    cut = cut.slice(0, -1);
  }
  return { text: join(cut), rest: "" };
}

/**
 * How well a sentence says what the memory is about: the main topics it names count most, and
 * people tend to open with what the memory is about.
 */
function sentenceWeight(sentence: Sentence, index: number, topics: Topic[]): number {
  const keys = new Set(sentence.words.filter((w) => w.content).map((w) => w.key));
  let weight = 0;
  for (const topic of topics) {
    if (topic.parts.some((part) => keys.has(part))) weight += 1.5 * topic.score;
  }
  const covered = new Set(topics.flatMap((t) => t.parts));
  for (const key of keys) if (!covered.has(key)) weight += 0.5;
  if (addressesChild(sentence.text)) weight += 1;
  weight += index === 0 ? 4.5 : index === 1 ? 1 : 0;
  const count = sentence.words.length;
  if (count < 5) weight *= 0.3;
  if (count > TITLE_MAX_WORDS) weight *= 0.7;
  return weight;
}

/** Scripts whose words are found inside longer ones: Chinese has no spaces, Arabic prefixes. */
const INSIDE_WORDS = /[\p{Script=Han}\p{Script=Arabic}]/u;

export function lexiconHits(text: string, entries: readonly string[]): number {
  const lower = text.toLowerCase();
  const tokens: string[] = lower.match(/\p{L}+/gu) ?? [];
  let hits = 0;
  for (const entry of entries) {
    const found =
      entry.includes(" ") || INSIDE_WORDS.test(entry)
        ? lower.includes(entry)
        : entry.length <= 4
          ? tokens.includes(entry)
          : tokens.some((t) => t.startsWith(entry));
    if (found) hits += 1;
  }
  return hits;
}

/** The closing line: comforting for a sad memory, laughing along with a funny one, else warm. */
function closing(analysis: Analysis, text: string): string {
  const sad = lexiconHits(text, LEXICON.sad);
  const funny = lexiconHits(text, LEXICON.funny);
  const lines = CLOSINGS[analysis.language];
  const sadStory =
    sad >= 2 ||
    (sad === 1 &&
      (analysis.language === "en" ? analysis.sentiment < -0.3 : funny === 0) &&
      lexiconHits(text, LEXICON.love) === 0);
  if (sadStory) return lines.sad;
  // One laugh in a long story does not make it a funny one.
  return funny >= 2 || (funny === 1 && analysis.wordCount < 80) ? lines.funny : lines.warm;
}

/**
 * The summary: a title sentence that says what happened (the recorder's most telling sentence,
 * without the "So, today" every memory starts with), up to two more of the recorder's sentences,
 * and a warm closing, all in the transcript's language. It is always shorter than the transcript
 * when the transcript has room for it, and never longer: parts are dropped until it fits, and a
 * one-line memory is its own summary.
 */
export function composeSummary(transcript: string, analysis: Analysis): string {
  const { language, sentences } = analysis;
  const original = transcript.replace(/\s+/g, " ").trim();
  const topics = pickTopics(analysis.topics);
  const weighted = sentences
    .map((sentence, index) => ({
      sentence,
      index,
      weight: sentenceWeight(sentence, index, topics),
    }))
    .filter((s) => s.sentence.words.length > 0);
  const byWeight = [...weighted].sort((a, b) => b.weight - a.weight || a.index - b.index);
  const best = byWeight[0];
  if (!best) return original;
  const cut = shorten(best.sentence.text, TITLE_MAX_WORDS, language);
  const title = withStop(cleanOpening(cut.text, language, true), language);
  // What a long title sentence said after the cut follows it ("And you built a sandcastle").
  const rest = cut.rest;
  /** Body sentences, most telling first (the last is dropped first when over the budget). */
  const body: { text: string; index: number }[] = [
    ...(splitWords(rest, language).length >= 3 ? [{ text: rest, index: best.index + 0.5 }] : []),
    ...byWeight
      .filter((s) => s !== best && s.sentence.words.length >= 3)
      .slice(0, BODY_SENTENCES)
      .map((s) => ({ text: s.sentence.text, index: s.index })),
  ];
  // Chinese puts no space after a sentence.
  const gap = language === "zh" ? "" : " ";
  const parts = () =>
    [
      title,
      ...[...body]
        .sort((a, b) => a.index - b.index)
        .map((s) =>
          withStop(
            cleanOpening(shorten(s.text, BODY_MAX_WORDS, language).text, language, false),
            language,
          ),
        ),
    ].join(gap);
  const closingLine = closing(analysis, original);
  // Longer transcripts get a summary well under their length; short ones just under it.
  const budget = original.length > 400 ? Math.max(300, original.length * 0.5) : original.length - 1;
  // The recorder may have said it already ("I love you"): then it is not said twice.
  const withEnd = () => {
    const said = [best.sentence.text, ...body.map((s) => s.text)];
    const saidLove = said.some((text) => SAYS_LOVE[language].test(text));
    return saidLove ? parts() : `${parts()}${gap}${closingLine}`;
  };
  let summary = withEnd();
  while (summary.length > budget && body.length > 0) {
    body.pop();
    summary = withEnd();
  }
  if (summary.length > budget) summary = parts();
  if (summary.length <= original.length) return summary;
  return original.charAt(0).toLocaleUpperCase(language) + original.slice(1);
}
