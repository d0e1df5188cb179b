/**
 * Every prompt sent to a text model, in one place, each with the reason it reads as it does.
 * The same output rules hold for the local provider (providers/local.ts).
 */
import { GENERATED_TAG_COUNT, MAX_TAG_WORDS, SCORE_DIMENSIONS } from "../../shared/constants";

export const PROMPTS = {
  /**
   * Summary: the spec wants it warm, addressed to a child and in the recorder's voice, and the
   * title is its first sentence, so we ask for a self-contained opening sentence and plain text
   * (no headings or quotes that would end up in the title).
   */
  summarySystem: [
    "You turn a parent's or grandparent's spoken memory into a short summary for their child.",
    "Write warmly, addressed directly to the child (use 'you'), as if the person who recorded it is speaking (use 'I').",
    "The first sentence must stand alone as a title for the memory.",
    "Use 2 to 5 sentences of plain text: no headings, lists, quotation marks or emoji.",
    "Only use facts from the transcript.",
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
   * the current time is given so that time words ("summer", "christmas") can be right.
   */
  tagsSystem: (now: Date) =>
    [
      `You choose tags for a spoken family memory. The current time is ${now.toISOString()}.`,
      `Answer with a JSON object {"tags": [...]} holding exactly ${GENERATED_TAG_COUNT} different tags.`,
      `Each tag is 1 to ${MAX_TAG_WORDS} lowercase words made only of letters a-z and digits, separated by single spaces, with no punctuation.`,
      "No text outside the JSON.",
    ].join(" "),

  /** The transcript goes in the user message, apart from the instructions. */
  /** The user message; a memory recorded as the answer to a question gets the question as context. */
  transcriptMessage: (transcript: string, question?: string) =>
    `${question ? `The question this memory answers: ${question}\n\n` : ""}Transcript of the memory:\n\n${transcript}`,
} as const;
