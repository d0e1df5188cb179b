import model from "wink-eng-lite-web-model";
import winkNLP, { type ItemToken } from "wink-nlp";
import { isValidGeneratedTag } from "../../../shared/rules";
import {
  arabicParts,
  BARE_AND,
  detectLanguage,
  EN_SUBJECTS,
  ES_HABER,
  ES_VERB_ENDING,
  FAMILY_WORDS,
  FILLERS,
  FR_AUXILIARY,
  FR_VERB_ENDING,
  isLocalLanguage,
  isStopWord,
  type LocalLanguage,
  MONTHS,
  NEVER_ALONE,
  PT_AUXILIARY,
  PT_VERB_ENDING,
  SENTENCE_STARTERS,
  VAGUE_NOUNS,
  WEAK_MODIFIERS,
  WEEKDAYS,
  ZH_NOT_TOPIC,
} from "./languages";

type Nlp = ReturnType<typeof winkNLP>;
let nlpInstance: Nlp | null = null;
/** The English model loads in about 110 ms, so it is loaded on first use, once. */
function nlp(): Nlp {
  nlpInstance ??= winkNLP(model);
  return nlpInstance;
}

/** A word of the transcript as the topic finder sees it. */
export interface Word {
  /** Lowercase form as said ("pancakes"). */
  lower: string;
  /** Key that merges forms of one word ("pancake" for "pancakes"). */
  key: string;
  /** A topic on its own (a noun or a name). */
  content: boolean;
  /** May stand in front of a topic in a tag ("first" in "first steps", "chocolate" in "chocolate cake"). */
  modifier: boolean;
  /** A name (English: tagged PROPN). */
  name: boolean;
}

export interface Sentence {
  /** The sentence as said, fillers removed. */
  text: string;
  words: Word[];
}

/** A possible tag: one word or a phrase of up to 3, with the sentences it was said in. */
export interface Topic {
  key: string;
  /** Keys of its words, so "first steps" and "steps" are seen as one topic. */
  parts: string[];
  /** The form said most often. */
  phrase: string;
  sentences: number;
  firstSeen: number;
  score: number;
}

export interface Analysis {
  language: LocalLanguage;
  sentences: Sentence[];
  /** Best first. */
  topics: Topic[];
  wordCount: number;
  distinctWords: number;
  /** English only (wink-nlp), -1 to 1; 0 for the others. */
  sentiment: number;
}

/**
 * Chinese is written without spaces between words: Intl.Segmenter (ICU's dictionary) finds them,
 * so "奶奶的厨房" is 奶奶 | 的 | 厨房. Made once; Node ships full ICU.
 */
const chineseWords = new Intl.Segmenter("zh", { granularity: "word" });
const HAN = /\p{Script=Han}/u;

/**
 * The words of a text, punctuation kept on them as written. Chinese: the segmenter's pieces,
 * punctuation as pieces of its own, and a space between two Chinese words (a speech engine's
 * pause) read as a comma.
 */
export function splitWords(text: string, language: LocalLanguage): string[] {
  if (language !== "zh") return text.split(/\s+/).filter(Boolean);
  const pieces = [...chineseWords.segment(text.trim())].map((s) => s.segment);
  const result: string[] = [];
  pieces.forEach((piece, i) => {
    const before = pieces[i - 1] ?? "";
    const after = pieces[i + 1] ?? "";
    if (piece.trim()) result.push(piece);
    else if (HAN.test(before.at(-1) ?? "") && HAN.test(after.charAt(0))) result.push("，");
    else if (before && after) result.push(" ");
  });
  return result;
}

/** The words put back together: Chinese without spaces. */
export function joinWords(words: string[], language: LocalLanguage): string {
  return language === "zh" ? words.join("").replace(/ +/g, " ") : words.join(" ");
}

/** Longer sentences are cut: written ones run longer than a speech engine's unpunctuated runs. */
const MAX_WORDS = { punctuated: 30, unpunctuated: 18 };
const MIN_PIECE_WORDS = 6;
const HARD_SENTENCE_WORDS = 30;

const bare = (token: string | undefined) => (token ?? "").toLowerCase().replace(/[^\p{L}]/gu, "");

/** Removes "um", "uh", "äh" and the like (with the comma that follows them). */
export function withoutFillers(text: string, language: LocalLanguage): string {
  const kept = splitWords(text, language).filter((token) => !FILLERS[language].has(bare(token)));
  // Chinese: a comma left behind by a dropped "嗯，" goes too.
  return joinWords(kept, language).replace(/^[，、\s]+/, "");
}

/**
 * Sentences of a transcript. A speech engine's output often has no punctuation at all, so a long
 * run is cut before words that start a new thought ("and then", "so", "pero", "und dann").
 */
export function splitSentences(text: string, language: LocalLanguage): string[] {
  const rough = text
    .replace(/\s+/g, " ")
    .trim()
    // Chinese ends its sentences with full-width marks and no space after them.
    .split(language === "zh" ? /(?<=[。！？!?…])\s*/ : /(?<=[.!?…؟])\s+/)
    .filter(Boolean);
  const starters = SENTENCE_STARTERS[language].map((s) => s.split(" "));
  const maxWords = rough.length > 1 ? MAX_WORDS.punctuated : MAX_WORDS.unpunctuated;
  const result: string[] = [];
  for (const sentence of rough) {
    const tokens = splitWords(sentence, language);
    if (tokens.length <= maxWords) {
      result.push(sentence);
      continue;
    }
    let piece: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const rest = tokens.slice(i, i + 3).map(bare);
      // A bare "and" starts a thought only before a subject: "and we went", not "and a photo".
      const startsThought = starters.some(
        (starter) =>
          starter.every((w, j) => rest[j] === w) &&
          (starter.length > 1 ||
            !BARE_AND.has(starter[0] ?? "") ||
            language !== "en" ||
            EN_SUBJECTS.has(rest[1] ?? "")),
      );
      // Chinese: a long run is cut at a pause (a comma) before it must be cut anywhere.
      const atPause = language === "zh" && tokens[i - 1] === "，" && piece.length >= maxWords;
      const tooLong = atPause || piece.length >= HARD_SENTENCE_WORDS;
      if (piece.length >= MIN_PIECE_WORDS && (startsThought || tooLong)) {
        result.push(joinWords(piece, language).replace(/[，,]$/, ""));
        piece = [];
      }
      piece.push(tokens[i] ?? "");
    }
    if (piece.length) result.push(joinWords(piece, language));
  }
  return result;
}

/** Words that are dates, not topics: month and day names and years. */
function isDateWord(word: string): boolean {
  return (
    /^(1[89]|20)\d\d$/.test(word) ||
    WEEKDAYS.has(word) ||
    Object.values(MONTHS).some((m) => m.includes(word))
  );
}

function usableTopicWord(lower: string, language: LocalLanguage): boolean {
  return (
    // A Chinese word of two characters says as much as a longer one elsewhere ("饺子", "厨房").
    lower.length >= (language === "zh" ? 2 : 3) &&
    !isStopWord(lower) &&
    !VAGUE_NOUNS.has(lower) &&
    !Object.values(FILLERS).some((f) => f.has(lower)) &&
    !isDateWord(lower) &&
    !/^\d+$/.test(lower) &&
    isValidGeneratedTag(lower)
  );
}

/** Crude lemma: plural and inflection endings off (Arabic words come here as their core). */
function stem(word: string, language: LocalLanguage): string {
  if (word.length <= 4) return word;
  if (language === "es") return word.replace(/(es|s)$/, "");
  if (language === "de") return word.replace(/(en|er|e|n|s)$/, "");
  if (language === "fr") return word.replace(/(s|x)$/, "");
  if (language === "pt") return word.replace(/ões$/, "ão").replace(/s$/, "");
  // Arabic: the feminine and sound plural endings ("جدة", "جدات").
  if (language === "ar") return word.replace(/(ات|ون|ين|ة)$/, "");
  return word;
}

function englishWords(sentence: string): Word[] {
  const n = nlp();
  const { its } = n;
  const words: Word[] = [];
  n.readDoc(sentence)
    .tokens()
    .each((token: ItemToken) => {
      if (token.out(its.type) !== "word") return;
      const lower = String(token.out(its.normal)).toLowerCase();
      // its.lemma is typed for spans only, though it works on tokens.
      const lemma = String(token.out(its.lemma as Parameters<ItemToken["out"]>[0])).toLowerCase();
      const pos = String(token.out(its.pos));
      const usable = usableTopicWord(lower, "en");
      words.push({
        lower,
        key: lemma || lower,
        content: usable && (pos === "NOUN" || pos === "PROPN"),
        modifier:
          usable &&
          !WEAK_MODIFIERS.has(lower) &&
          (pos === "ADJ" || pos === "NOUN" || pos === "PROPN"),
        name: pos === "PROPN",
      });
    });
  return words;
}

/** Verb endings and auxiliaries of the Romance languages: what follows is a verb, not a topic. */
const ROMANCE_VERBS: Partial<Record<LocalLanguage, { ending: RegExp; auxiliary: Set<string> }>> = {
  es: { ending: ES_VERB_ENDING, auxiliary: ES_HABER },
  fr: { ending: FR_VERB_ENDING, auxiliary: FR_AUXILIARY },
  pt: { ending: PT_VERB_ENDING, auxiliary: PT_AUXILIARY },
};

/**
 * Chinese words without a tagger: the segmenter's words, function words and verbs by list, and
 * words that start with a function character or end in a particle left out. Adjacent nouns make
 * one topic, as Chinese writes them ("巧克力" + "蛋糕").
 */
function chineseWordsOf(sentence: string): Word[] {
  return [...chineseWords.segment(sentence)]
    .filter((s) => s.isWordLike)
    .map(({ segment }) => {
      const lower = segment.toLowerCase();
      const usable = HAN.test(lower)
        ? usableTopicWord(lower, "zh") && !ZH_NOT_TOPIC.test(lower)
        : usableTopicWord(lower, "en");
      return { lower, key: lower, content: usable, modifier: usable, name: false };
    });
}

/**
 * Arabic words without a tagger: a definite word ("المطبخ") is a noun or its adjective, a family
 * word ("جدتي") a person, and the word after a family word a name ("جدتي فاطمة"). Verbs never
 * take the article, so they are left out. Tags are single words: two definite words side by side
 * are a noun and its adjective as often as two topics.
 */
function arabicWordsOf(sentence: string): Word[] {
  const tokens = sentence.match(/\p{L}[\p{L}\p{M}]*|\d+/gu) ?? [];
  const words: Word[] = [];
  let afterFamily = false;
  for (const token of tokens) {
    const { form, core, definite } = arabicParts(token);
    const family = FAMILY_WORDS.has(form);
    const weak = WEAK_MODIFIERS.has(form);
    const usable = usableTopicWord(form, "ar") && !isStopWord(core) && !weak;
    const name = afterFamily && usable && !definite;
    words.push({
      lower: form,
      key: stem(core, "ar"),
      content: usable && (definite || family || name),
      modifier: false,
      name,
    });
    afterFamily = family;
  }
  return words;
}

/** The other languages without a tagger: function-word lists, verb endings and capitals. */
function otherWords(sentence: string, language: LocalLanguage): Word[] {
  if (language === "zh") return chineseWordsOf(sentence);
  if (language === "ar") return arabicWordsOf(sentence);
  const tokens = sentence.match(/\p{L}[\p{L}\p{M}]*|\d+\p{L}*/gu) ?? [];
  const words: Word[] = [];
  tokens.forEach((token, index) => {
    const lower = token.toLocaleLowerCase(language);
    const usable = usableTopicWord(lower, language);
    let content = usable;
    let modifier = usable && !WEAK_MODIFIERS.has(lower);
    const capital = /^\p{Lu}/u.test(token);
    const romance = ROMANCE_VERBS[language];
    if (romance) {
      const previous = (tokens[index - 1] ?? "").toLowerCase();
      const verb =
        !FAMILY_WORDS.has(lower) &&
        ((romance.ending.test(lower) && lower.length > 4) ||
          romance.auxiliary.has(previous) ||
          // The French gerund: "en montrant".
          (language === "fr" && previous === "en" && lower.endsWith("ant")));
      // "muchísimo", "grande": how much or how big, not what.
      const weak = WEAK_MODIFIERS.has(lower) || /ísim[oa]s?$/.test(lower);
      content = content && !verb && !weak && !NEVER_ALONE.has(lower) && lower.length >= 4;
      modifier = modifier && !verb && !weak;
    } else {
      // German nouns are written with a capital; lowercase words are verbs and adjectives. Two
      // nouns side by side are two topics ("Kühe Namen"), except a relative and a name ("Opa
      // Heinrich"): German writes its compounds as one word.
      content = content && capital;
      modifier =
        modifier && (FAMILY_WORDS.has(lower) || (!capital && /(e|en|er|es|em)$/.test(lower)));
    }
    words.push({
      lower,
      key: stem(lower, language),
      content,
      modifier,
      name: capital && index > 0 && !FAMILY_WORDS.has(lower),
    });
  });
  return words;
}

/** The language to write in: the one given when supported, else detected from the text. */
export function chooseLanguage(text: string, given?: string): LocalLanguage {
  const code = given?.trim().toLowerCase().slice(0, 2);
  return code && isLocalLanguage(code) ? code : detectLanguage(text);
}

/**
 * Candidate topics of each sentence: every topic word, and runs of up to 3 words ending in one
 * ("first steps", "chocolate cake"), Spanish ones starting with one too ("tarta chocolate").
 */
function phrasesOf(words: Word[], language: LocalLanguage): Word[][] {
  const phrases: Word[][] = [];
  for (let end = 0; end < words.length; end++) {
    const last = words[end];
    if (!last?.content) continue;
    phrases.push([last]);
    for (let start = end - 1; start >= Math.max(0, end - 2); start--) {
      const run = words.slice(start, end + 1);
      if (!run.slice(0, -1).every((w) => w.modifier)) break;
      phrases.push(run);
    }
  }
  if (language === "es" || language === "fr" || language === "pt") {
    // Romance adjectives follow the noun: "playa bonita", "pão quentinho".
    for (let start = 0; start < words.length - 1; start++) {
      const first = words[start];
      const second = words[start + 1];
      if (first?.content && second?.modifier && !second.content) phrases.push([first, second]);
    }
  }
  return phrases;
}

export function analyse(transcript: string, givenLanguage?: string): Analysis {
  const collapsed = transcript.replace(/\s+/g, " ").trim();
  const language = chooseLanguage(collapsed, givenLanguage);
  const clean = withoutFillers(collapsed, language);
  const texts = splitSentences(clean, language);
  const sentences: Sentence[] = texts.map((text) => ({
    text,
    words: language === "en" ? englishWords(text) : otherWords(text, language),
  }));

  const topics = new Map<string, Topic & { forms: Map<string, number> }>();
  const headCount = new Map<string, number>();
  let order = 0;
  for (const sentence of sentences) {
    // Each topic counts once per sentence, or a phrase like "ear to ear" outweighs the subject.
    const seen = new Set<string>();
    for (const phrase of phrasesOf(sentence.words, language)) {
      const parts = phrase.map((w) => w.key);
      if (new Set(parts).size < parts.length) continue;
      const key = parts.join(" ");
      if (seen.has(key)) continue;
      seen.add(key);
      const form = phrase.map((w) => w.lower).join(language === "zh" ? "" : " ");
      const topic = topics.get(key) ?? {
        key,
        parts,
        phrase: form,
        sentences: 0,
        firstSeen: order++,
        score: 0,
        forms: new Map<string, number>(),
      };
      topic.sentences += 1;
      topic.forms.set(form, (topic.forms.get(form) ?? 0) + 1);
      topics.set(key, topic);
      if (parts.length === 1) headCount.set(key, (headCount.get(key) ?? 0) + 1);
    }
  }
  const ranked: Topic[] = [...topics.values()].map(({ forms, ...topic }) => {
    const phrase = [...forms.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? topic.phrase;
    // A phrase counts for itself and, a little, for its main word said elsewhere ("first steps"
    // beats "steps" said twice); a name or family word is what many memories are about.
    const heads = Math.max(...topic.parts.map((p) => headCount.get(p) ?? 0));
    const phraseBonus = topic.parts.length > 1 ? 0.6 * heads : 0;
    const familyBonus = topic.parts.some((p) => FAMILY_WORDS.has(p)) ? 0.3 : 0;
    return { ...topic, phrase, score: topic.sentences + phraseBonus + familyBonus };
  });
  ranked.sort((a, b) => b.score - a.score || a.firstSeen - b.firstSeen);

  const allWords = sentences.flatMap((s) => s.words);
  let sentiment = 0;
  if (language === "en") {
    const n = nlp();
    sentiment = Number(n.readDoc(clean).out(n.its.sentiment)) || 0;
  }
  return {
    language,
    sentences,
    topics: ranked,
    wordCount: allWords.length,
    distinctWords: new Set(allWords.map((w) => w.key)).size,
    sentiment,
  };
}

/** The 3 most telling topics that do not repeat one another (no shared word). */
export function pickTopics(topics: Topic[], count = 3): Topic[] {
  const chosen: Topic[] = [];
  const used = new Set<string>();
  for (const topic of topics) {
    if (chosen.length === count) break;
    if (topic.parts.some((p) => used.has(p))) continue;
    if (!isValidGeneratedTag(topic.phrase)) continue;
    chosen.push(topic);
    for (const p of topic.parts) used.add(p);
  }
  return chosen;
}

/** Words that speak to the child, in any of the languages ("you", "tú", "du", "toi", "você", "أنت"). */
const TO_CHILD =
  /(?<!\p{L})(?:(?:you|your|tú|tu|te|ti|contigo|du|dich|dir|dein|deine|deinen|deinem|toi|ton|ta|tes|você|vocês|teu|tua|أنت|انت|لك|معك|إليك|عليك|حبيبي|حبيبتي)(?!\p{L})|t['’])|你/iu;

/** True when the text speaks to the child. */
export function addressesChild(text: string): boolean {
  return TO_CHILD.test(text);
}
