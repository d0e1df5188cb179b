import { QUESTIONS } from "../../shared/questions";
import { questionsInEveryLanguage, wordsIn } from "./words";

/**
 * A built-in question in `language`: the library is the same list in every language, so a
 * question is found by its place in the English one. Any other text (a family's own question)
 * comes back as it is.
 */
export function questionIn(language: string, question: string): string {
  const index = QUESTIONS.indexOf(question);
  if (index < 0) return question;
  return wordsIn(language).QUESTIONS[index] ?? question;
}

/**
 * A built-in question in any language as the library's own (English) text, which every reader's
 * page puts in their language; any other text comes back as it is.
 */
export function libraryQuestion(text: string): string {
  for (const questions of questionsInEveryLanguage()) {
    const index = questions.indexOf(text);
    if (index >= 0) return QUESTIONS[index] ?? text;
  }
  return text;
}
