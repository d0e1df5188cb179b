import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import model from "wink-eng-lite-web-model";
import winkNLP, { type ItemSentence, type ItemToken } from "wink-nlp";
import { MESSAGES } from "../../../shared/messages";
import {
  estimateDuration,
  isValidGeneratedTag,
  normalizeScores,
  validateGeneratedTags,
} from "../../../shared/rules";
import type { Scores } from "../../../shared/schemas";
import {
  type AudioInput,
  audioBytes,
  type CallOptions,
  type TextModel,
  type Transcriber,
  type TranscriptionResult,
  withErrorPrefix,
} from "../ai";
import { run, toWav16kMono, withTempDir } from "../audio-split";

type Nlp = ReturnType<typeof winkNLP>;
let nlpInstance: Nlp | null = null;
/** The model loads in about 110 ms, so it is loaded on first use, once. */
function nlp(): Nlp {
  nlpInstance ??= winkNLP(model);
  return nlpInstance;
}

interface Analysis {
  sentences: string[];
  /** Content words (lemmas) with the number of sentences each appears in. */
  keywords: { word: string; sentences: number; firstSeen: number; pos: string }[];
  importance: number[];
  sentiment: number;
  wordCount: number;
  distinctWords: number;
  exclamations: number;
}

const CONTENT_POS = new Set(["NOUN", "PROPN"]);
// Words that say nothing about what a memory is about.
const WEAK_WORDS = new Set([
  "today",
  "yesterday",
  "tomorrow",
  "day",
  "time",
  "thing",
  "things",
  "way",
  "lot",
  "bit",
  "something",
  "anything",
  "everything",
  "nothing",
  "one",
  "kind",
  "um",
  "uh",
  "yeah",
]);

function analyse(text: string): Analysis {
  const n = nlp();
  const { its } = n;
  const doc = n.readDoc(text);
  const sentences = doc.sentences().out() as string[];
  const counts = new Map<string, { sentences: number; firstSeen: number; pos: string }>();
  let wordCount = 0;
  const distinct = new Set<string>();
  let order = 0;
  doc.sentences().each((sentence: ItemSentence) => {
    // A word counts once per sentence, or a phrase like "ear to ear" outweighs the topic.
    const seen = new Set<string>();
    sentence.tokens().each((token: ItemToken) => {
      if (token.out(its.type) !== "word") return;
      wordCount += 1;
      // its.lemma is typed for spans only, though it works on tokens.
      const lemma = String(token.out(its.lemma as Parameters<ItemToken["out"]>[0])).toLowerCase();
      distinct.add(lemma);
      const pos = String(token.out(its.pos));
      if (!CONTENT_POS.has(pos) || token.out(its.stopWordFlag)) return;
      const word = String(token.out(its.normal)).toLowerCase();
      if (WEAK_WORDS.has(word) || word.length < 3 || !isValidGeneratedTag(word)) return;
      if (seen.has(word)) return;
      seen.add(word);
      const entry = counts.get(word) ?? { sentences: 0, firstSeen: order++, pos };
      entry.sentences += 1;
      counts.set(word, entry);
    });
  });
  const importance = (
    doc.out(its.sentenceWiseImportance) as unknown as { index: number; importance: number }[]
  ).map((s) => s.importance);
  const keywords = [...counts.entries()]
    .map(([word, v]) => ({ word, ...v }))
    .sort((a, b) => b.sentences - a.sentences || a.firstSeen - b.firstSeen);
  return {
    sentences,
    keywords,
    importance,
    sentiment: Number(doc.out(its.sentiment)) || 0,
    wordCount,
    distinctWords: distinct.size,
    exclamations: (text.match(/!/g) ?? []).length,
  };
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

const FAMILY_WORDS = new Set([
  "mom",
  "mum",
  "mommy",
  "dad",
  "daddy",
  "grandma",
  "grandpa",
  "granny",
  "grandmother",
  "grandfather",
  "sister",
  "brother",
  "aunt",
  "uncle",
  "cousin",
]);

/** "the beach", "your grandpa", "Lisbon". */
function topicPhrase(keyword: { word: string; pos: string }): string {
  if (FAMILY_WORDS.has(keyword.word)) return `your ${keyword.word}`;
  if (keyword.pos === "PROPN") return keyword.word.charAt(0).toUpperCase() + keyword.word.slice(1);
  return `the ${keyword.word}`;
}

function sentenceCase(sentence: string): string {
  const s = sentence.trim().replace(/\s+/g, " ");
  const withStop = /[.!?]$/.test(s) ? s : `${s}.`;
  return withStop.charAt(0).toUpperCase() + withStop.slice(1);
}

const MOOD_WORDS: Record<string, string[]> = {
  cuteness: [
    "baby",
    "little",
    "tiny",
    "giggle",
    "giggled",
    "laugh",
    "laughed",
    "smile",
    "smiled",
    "cute",
    "hug",
    "cuddle",
    "puppy",
    "kitten",
    "teddy",
    "first",
    "sweet",
  ],
  meaningfulness: [
    "love",
    "remember",
    "family",
    "proud",
    "grandma",
    "grandpa",
    "mom",
    "dad",
    "mother",
    "father",
    "forever",
    "heart",
    "together",
    "never",
    "always",
    "important",
    "birthday",
  ],
  excitement: [
    "amazing",
    "excited",
    "wow",
    "huge",
    "fast",
    "surprise",
    "surprised",
    "adventure",
    "won",
    "finally",
    "incredible",
    "jumped",
    "screamed",
  ],
};

function moodCount(text: string, words: string[]): number {
  const lower = text.toLowerCase();
  return words.reduce((sum, word) => sum + (new RegExp(`\\b${word}\\b`).test(lower) ? 1 : 0), 0);
}

const clamp = (value: number) => Math.max(1, Math.min(10, Math.round(value)));

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/**
 * Summary, scores and tags computed offline with wink-nlp, following the same output rules as
 * the OpenAI provider: a warm summary addressed to the child in the recorder's voice, six integer
 * scores 1 to 10, exactly 3 valid tags.
 */
export class LocalTextModel implements TextModel {
  // Each call runs in-process in milliseconds: the signal is checked before it starts.
  async summarize(transcript: string, { signal }: CallOptions = {}): Promise<string> {
    signal?.throwIfAborted();
    return withErrorPrefix(MESSAGES.summarizeFailedPrefix, async () => {
      const text = transcript.trim();
      if (!text) throw new Error(MESSAGES.noSummaryGenerated);
      const a = analyse(text);
      const topics = a.keywords.slice(0, 2);
      const opening = topics.length
        ? `My dear, I want to tell you about ${joinWords(a.keywords.slice(0, 2).map(topicPhrase))}.`
        : "My dear, I want to tell you about a moment I never want to forget.";
      // Keep the recorder's own words: the most important sentences, in the order they were said.
      const chosen = a.sentences
        .map((sentence, index) => ({ sentence, index, weight: a.importance[index] ?? 0 }))
        .filter((s) => s.sentence.split(/\s+/).length >= 3)
        .sort((x, y) => y.weight - x.weight || x.index - y.index)
        .slice(0, 3)
        .sort((x, y) => x.index - y.index)
        .map((s) => sentenceCase(s.sentence));
      const closing =
        a.sentiment < -0.2
          ? "Even on hard days, I love you and I am always here for you."
          : "I love you so much, and I hope you keep this memory close to your heart.";
      return [opening, ...chosen, closing].join(" ");
    });
  }

  async score(transcript: string, { signal }: CallOptions = {}): Promise<Scores> {
    signal?.throwIfAborted();
    return withErrorPrefix(MESSAGES.scoreFailedPrefix, async () => {
      const a = analyse(transcript);
      const length = Math.min(1, a.wordCount / 120);
      const variety = a.wordCount ? a.distinctWords / a.wordCount : 0;
      const positive = Math.max(0, a.sentiment);
      const meaningfulness = clamp(
        4 + moodCount(transcript, MOOD_WORDS.meaningfulness ?? []) + 2 * length,
      );
      const cuteness = clamp(
        3 + 1.5 * moodCount(transcript, MOOD_WORDS.cuteness ?? []) + 2 * positive,
      );
      const excitement = clamp(
        3 + moodCount(transcript, MOOD_WORDS.excitement ?? []) + a.exclamations + 3 * positive,
      );
      const interest = clamp(3 + 3 * length + Math.min(3, a.keywords.length / 3));
      const uniqueness = clamp(2 + 6 * variety + Math.min(2, a.keywords.length / 5));
      const overall = clamp((meaningfulness + cuteness + excitement + interest + uniqueness) / 5);
      return normalizeScores({
        meaningfulness,
        cuteness,
        excitement,
        interest,
        uniqueness,
        overall,
      });
    });
  }

  async tags(transcript: string, now: Date, { signal }: CallOptions = {}): Promise<string[]> {
    signal?.throwIfAborted();
    return withErrorPrefix(MESSAGES.tagsFailedPrefix, async () => {
      const a = analyse(transcript);
      const tags: string[] = [];
      for (const { word } of a.keywords) {
        if (tags.length === 3) break;
        if (!tags.includes(word)) tags.push(word);
      }
      // Short transcripts: fill with the time of recording (the tag step is given the current time).
      for (const filler of [
        MONTHS[now.getUTCMonth()] ?? "memories",
        String(now.getUTCFullYear()),
        "family",
        "memories",
      ]) {
        if (tags.length === 3) break;
        if (!tags.includes(filler)) tags.push(filler);
      }
      return validateGeneratedTags(tags);
    });
  }
}

export const POCKETSPHINX_MISSING =
  "no offline speech engine is installed. Install one with `apt-get install pocketsphinx pocketsphinx-en-us`, or configure an OpenAI-compatible server with OPENAI_API_KEY / OPENAI_BASE_URL";

/** Offline transcription with CMU pocketsphinx (Debian's pocketsphinx_continuous). */
export class PocketsphinxTranscriber implements Transcriber {
  constructor(private readonly binary = "pocketsphinx_continuous") {}

  /** Aborting `options.signal` kills ffmpeg or the engine, whichever is running. */
  transcribe(audio: AudioInput, options: CallOptions = {}): Promise<TranscriptionResult> {
    const { signal } = options;
    const work = async () => {
      const bytes = await audioBytes(audio.bytes);
      const text = await withTempDir(async (dir) => {
        await mkdir(dir, { recursive: true });
        const input = path.join(dir, `input${path.extname(audio.filename) || ".bin"}`);
        const wav = path.join(dir, "speech.wav");
        await writeFile(input, bytes);
        await toWav16kMono(input, wav, signal);
        const out = await run(this.binary, ["-infile", wav, "-logfn", "/dev/null"], {
          notFound: POCKETSPHINX_MISSING,
          signal,
        });
        return out
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
          .join(" ");
      });
      return { text, duration: estimateDuration(bytes.length) };
    };
    return withErrorPrefix(MESSAGES.transcriptionFailedPrefix, work, signal);
  }
}
