/**
 * Every prompt sent to a text model, in one place, each with the reason it reads as it does.
 * The same output rules hold for the local provider (providers/local.ts).
 */
import { GENERATED_TAG_COUNT, MAX_TAG_WORDS, SCORE_DIMENSIONS } from "../../shared/constants";

/**
 * The output language: the one the speech engine heard (an ISO 639-1 code) when known, else the
 * transcript's own. Without this a model tends to answer a Spanish memory in English.
 */
export function languageInstruction(language?: string): string {
  const code = language?.trim().toLowerCase();
  let name = code;
  try {
    name = code ? (new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code) : code;
  } catch {
    // Not a language code Intl knows: the code itself still tells the model.
  }
  return name
    ? `The transcript is in ${name}: write in ${name}.`
    : "Write in the language of the transcript.";
}

/** Told with a memory that has a photo: what the speaker looked at is not shown to the model. */
export const PHOTO_NOTE =
  "The speaker told this while looking at a photo (the photo itself is not shown to you; do not describe it).";

export const PROMPTS = {
  /**
   * Summary: the spec wants it warm, addressed to a child and in the recorder's voice, and the
   * title is its first sentence, so we ask for a self-contained opening sentence and plain text
   * (no headings or quotes that would end up in the title).
   */
  summarySystem: (language?: string) =>
    [
      "You turn a parent's or grandparent's spoken memory into a short summary for their child.",
      "Write warmly, addressed directly to the child (use 'you'), as if the person who recorded it is speaking (use 'I').",
      "The first sentence must stand alone as a title for the memory: say what happened, and do not start with a greeting or a fixed phrase.",
      "Use 2 to 5 sentences of plain text: no headings, lists, quotation marks or emoji.",
      "The summary must be shorter than the transcript.",
      "Only use facts from the transcript.",
      languageInstruction(language),
    ].join(" "),

  /**
   * Scores: JSON mode needs the word JSON in the prompt and a fixed shape; integers 1 to 10 keep
   * the values comparable across memories (anything else is replaced by 5 on our side).
   */
  scoreSystem: [
    "You rate a spoken family memory.",
    `Answer with a JSON object with exactly these integer fields, each from 1 to 10: ${SCORE_DIMENSIONS.join(", ")}.`,
    "Use 5 when unsure. No other fields, no text outside the JSON.",
  ].join(" "),

  /**
   * Tags: exactly 3, 1 to 3 lowercase words without punctuation, no duplicates (spec section 5);
   * the current time is given so that time words ("summer", "christmas") can be right, but a date
   * is a poor topic, so it is asked for only when nothing better is there.
   */
  tagsSystem: (now: Date, language?: string) =>
    [
      `You choose tags for a spoken family memory. The current time is ${now.toISOString()}.`,
      `Answer with a JSON object {"tags": [...]} holding exactly ${GENERATED_TAG_COUNT} different tags: the most telling topics of the memory (people, places, events, such as "first steps").`,
      `Each tag is 1 to ${MAX_TAG_WORDS} lowercase words made only of letters and digits, separated by single spaces, with no punctuation.`,
      "No two tags may be forms of the same word. Use a month or year only when the transcript offers no better topic.",
      languageInstruction(language),
      "No text outside the JSON.",
    ].join(" "),

  /** The user message; a memory recorded as the answer to a question gets the question as context. */
  transcriptMessage: (transcript: string, question?: string, aboutPhoto?: boolean) =>
    `${question ? `The question this memory answers: ${question}\n\n` : ""}${aboutPhoto ? `${PHOTO_NOTE}\n\n` : ""}Transcript of the memory:\n\n${transcript}`,
} as const;
