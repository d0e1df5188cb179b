import { ALL_CATALOGUES, type Catalogues } from "../../shared/i18n/all-catalogues";
import { type Translation, translated } from "../../shared/i18n/catalogues";
import { isLanguage, LANGUAGES, type Language, SOURCE_LANGUAGE } from "../../shared/i18n/languages";
import ar from "../../shared/i18n/locales/ar.json" with { type: "json" };
import de from "../../shared/i18n/locales/de.json" with { type: "json" };
import es from "../../shared/i18n/locales/es.json" with { type: "json" };
import fr from "../../shared/i18n/locales/fr.json" with { type: "json" };
import ptBR from "../../shared/i18n/locales/pt-BR.json" with { type: "json" };
import zhCN from "../../shared/i18n/locales/zh-CN.json" with { type: "json" };

const TRANSLATIONS: Readonly<Record<Language, Translation>> = {
  en: {},
  es,
  fr,
  de,
  "pt-BR": ptBR,
  "zh-CN": zhCN,
  ar,
};

const made = new Map<Language, Catalogues>();

/**
 * Every catalogue in `language` (English for an unknown or missing one), made once per language:
 * the server writes each mail, book and card in its reader's language, never in a global one.
 */
export function wordsIn(language: string | null | undefined): Catalogues {
  const chosen = isLanguage(language) ? language : SOURCE_LANGUAGE;
  let words = made.get(chosen);
  if (!words) {
    words =
      chosen === SOURCE_LANGUAGE
        ? ALL_CATALOGUES
        : translated(ALL_CATALOGUES, TRANSLATIONS[chosen]);
    made.set(chosen, words);
  }
  return words;
}

/**
 * The language a mail or page is written in for its reader: the first of `choices` the product
 * speaks (the reader's own setting first, then what stands in for it), else English.
 */
export function languageOf(...choices: readonly (string | null | undefined)[]): Language {
  return choices.find((choice): choice is Language => isLanguage(choice)) ?? SOURCE_LANGUAGE;
}

/** The built-in questions in every language: one asked in any of them is one the product asks. */
export function questionsInEveryLanguage(): readonly (readonly string[])[] {
  return LANGUAGES.map((language) => wordsIn(language).QUESTIONS);
}
