import { MESSAGES } from "../../../shared/messages";
import { normalizeScores, validateGeneratedTags } from "../../../shared/rules";
import type { Scores } from "../../../shared/schemas";
import { type TextModel, type TextOptions, withErrorPrefix } from "../ai";
import { type Analysis, addressesChild, analyse, pickTopics } from "../local-text/analyse";
import { composeSummary, lexiconHits } from "../local-text/compose";
import { FAMILY_TAG, FAMILY_WORDS, KIND_TAGS, LEXICON, MONTHS } from "../local-text/languages";

const clamp = (value: number) => Math.max(1, Math.min(10, Math.round(value)));
const upTo = (value: number, max: number) => Math.min(max, value) / max;

/** Scores from what the transcript holds: length, topics, people, feelings, milestones. */
function scoresOf(transcript: string, a: Analysis): Scores {
  // About two minutes of speech is a full story; a word or two is not a memory yet.
  const length = upTo(a.wordCount, 150);
  const topics = a.topics.filter((t) => t.parts.length === 1).length;
  const variety = a.wordCount ? a.distinctWords / a.wordCount : 0;
  const love = lexiconHits(transcript, LEXICON.love);
  const sad = lexiconHits(transcript, LEXICON.sad);
  const funny = lexiconHits(transcript, LEXICON.funny);
  const cute = lexiconHits(transcript, LEXICON.cute);
  const milestone = lexiconHits(transcript, LEXICON.milestone);
  const excitement = lexiconHits(transcript, LEXICON.excitement);
  const words = a.sentences.flatMap((s) => s.words);
  const people = new Set(words.filter((w) => w.name || FAMILY_WORDS.has(w.key)).map((w) => w.key))
    .size;
  const toChild = addressesChild(transcript) ? 1 : 0;
  const exclamations = (transcript.match(/!/g) ?? []).length;
  const feeling = upTo(love + sad + milestone, 4);

  const meaningfulness = clamp(
    1 + 3 * length + 2.5 * feeling + 1.5 * upTo(people, 2) + (sad > 0 ? 1 : 0) + toChild,
  );
  const cuteness = clamp(1 + 2 * Math.min(3, cute) + 1.5 * Math.min(2, funny) + toChild + length);
  const excitementScore = clamp(
    1 + 1.5 * Math.min(3, excitement) + Math.min(2, exclamations) + Math.min(1, funny) + 2 * length,
  );
  const interest = clamp(1 + 4 * length + 3 * upTo(topics, 10) + 1.5 * upTo(people, 2));
  const uniqueness = clamp(
    1 + 3 * upTo(topics, 12) + 2 * variety * Math.min(1, a.wordCount / 20) + Math.min(2, milestone),
  );
  const overall = clamp(
    1 + 3 * length + 1.5 * upTo(topics, 10) + 1.5 * feeling + upTo(people, 2) + toChild,
  );
  return normalizeScores({
    meaningfulness,
    cuteness,
    excitement: excitementScore,
    interest,
    uniqueness,
    overall,
  });
}

/**
 * The 3 tags: the most telling topics; when too few, what kind of memory it is (a milestone, a
 * funny one), and only then the month, year and "family".
 */
function tagsOf(transcript: string, a: Analysis, now: Date): string[] {
  const tags = pickTopics(a.topics).map((t) => t.phrase);
  const kinds = KIND_TAGS[a.language];
  const fillers = [
    ...(["milestone", "funny", "sad", "love"] as const)
      .filter((kind) => lexiconHits(transcript, LEXICON[kind]) > 0)
      .map((kind) => kinds[kind]),
    MONTHS[a.language][now.getUTCMonth()] ?? "",
    String(now.getUTCFullYear()),
    FAMILY_TAG[a.language],
    "memories",
  ];
  for (const filler of fillers) {
    if (tags.length === 3) break;
    if (filler && !tags.includes(filler)) tags.push(filler);
  }
  return validateGeneratedTags(tags);
}

/**
 * Summary, scores and tags computed offline (wink-nlp for English, word lists for the six other
 * languages, Intl.Segmenter for Chinese words), following the output rules every provider
 * follows; see docs/adr/0022 and 0066.
 */
export class LocalTextModel implements TextModel {
  // Each call runs in-process in milliseconds: the signal is checked before it starts.
  async summarize(transcript: string, { signal, language }: TextOptions = {}): Promise<string> {
    signal?.throwIfAborted();
    return withErrorPrefix(MESSAGES.summarizeFailedPrefix, async () => {
      const text = transcript.trim();
      if (!text) throw new Error(MESSAGES.noSummaryGenerated);
      return composeSummary(text, analyse(text, language));
    });
  }

  async score(transcript: string, { signal, language }: TextOptions = {}): Promise<Scores> {
    signal?.throwIfAborted();
    return withErrorPrefix(MESSAGES.scoreFailedPrefix, async () =>
      scoresOf(transcript, analyse(transcript, language)),
    );
  }

  async tags(
    transcript: string,
    now: Date,
    { signal, language }: TextOptions = {},
  ): Promise<string[]> {
    signal?.throwIfAborted();
    return withErrorPrefix(MESSAGES.tagsFailedPrefix, async () =>
      tagsOf(transcript, analyse(transcript, language), now),
    );
  }
}
