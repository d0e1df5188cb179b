import {
  FAMILY_QUESTION_MESSAGES,
  JOURNAL_MESSAGES,
  RECORDING_LINK_MESSAGES,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
} from "../journals";
import { COMING_SOON, ERROR_MESSAGES, MEMORY_BOOK, MESSAGES, UPDATE_MESSAGES } from "../messages";
import { PHOTO_MESSAGES } from "../photos";
import { QUESTIONS, SPECIAL_DAY_QUESTIONS } from "../questions";
import { RELATIVES } from "../relatives";
import { REMINDER_MESSAGES, TIME_ZONE_REGIONS } from "../reminder-messages";
import { SHARE_MESSAGES } from "../share-links";

/**
 * The catalogues of words the browser shows, by name: the English source every language
 * translates. A language's file (`locales/<lang>.json`) holds the same names and keys; the
 * browser puts its words in place as each catalogue loads (`page-words.ts`).
 */
export const APP_CATALOGUES = {
  MESSAGES,
  ERROR_MESSAGES,
  MEMORY_BOOK,
  UPDATE_MESSAGES,
  COMING_SOON,
  SHARE_MESSAGES,
  JOURNAL_MESSAGES,
  RECORDING_LINK_MESSAGES,
  FAMILY_QUESTION_MESSAGES,
  ROLE_LABELS,
  ROLE_DESCRIPTIONS,
  REMINDER_MESSAGES,
  TIME_ZONE_REGIONS,
  PHOTO_MESSAGES,
  QUESTIONS,
  SPECIAL_DAY_QUESTIONS,
  RELATIVES,
};

/** A catalogue's shape with every word a string (what a language file must hold). */
export type Words<T> = T extends string
  ? string
  : T extends readonly (infer E)[]
    ? readonly Words<E>[]
    : { readonly [K in keyof T]: Words<T[K]> };

/** A language file: any catalogue, key or list may be missing (English stands in). */
export type Translation = { readonly [name: string]: unknown };

/**
 * `english` with `translation`'s words over it, as a new object; what is missing or not a
 * string stays English.
 */
export function translated<T>(english: T, translation: unknown): T {
  if (typeof english === "string")
    return (typeof translation === "string" ? translation : english) as T;
  if (Array.isArray(english)) {
    const list = Array.isArray(translation) ? translation : [];
    return english.map((word, index) => translated(word, list[index])) as T;
  }
  if (english && typeof english === "object") {
    const from = (translation && typeof translation === "object" ? translation : {}) as Record<
      string,
      unknown
    >;
    return Object.fromEntries(
      Object.entries(english).map(([key, word]) => [key, translated(word, from[key])]),
    ) as T;
  }
  return english;
}
