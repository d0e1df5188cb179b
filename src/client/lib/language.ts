import { PAGE_LANGUAGE_SCRIPT_ID } from "../../shared/constants";
import type { Translation } from "../../shared/i18n/catalogues";
import {
  directionOf,
  isLanguage,
  type Language,
  matchLanguage,
  SOURCE_LANGUAGE,
  setCurrentLanguage,
} from "../../shared/i18n/languages";
import { speakTranslation } from "../../shared/i18n/page-words";

/** Each language's words, a chunk of its own loaded only by a page that speaks it. */
const LOCALES = import.meta.glob<Translation>("../../shared/i18n/locales/*.json", {
  import: "default",
});

/** A visitor's choice from the footer, kept in this browser (an account keeps its own). */
const CHOICE_KEY = "language";

function storedChoice(): string | null {
  try {
    return localStorage.getItem(CHOICE_KEY);
  } catch {
    return null;
  }
}

/** The language the server says this page speaks whoever opens it (a storyteller's link page). */
function embeddedPageLanguage(): string | undefined {
  const text = document.getElementById(PAGE_LANGUAGE_SCRIPT_ID)?.textContent;
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language this page speaks: the page's own when the server names one (a storyteller's
 * recording link speaks theirs), else the account's, else the one chosen in this browser, else the
 * browser's own.
 */
export function pageLanguage(account: { language?: string | null } | null | undefined): Language {
  const own = embeddedPageLanguage();
  if (isLanguage(own)) return own;
  if (isLanguage(account?.language)) return account.language;
  const stored = storedChoice();
  if (isLanguage(stored)) return stored;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  return matchLanguage(preferred.filter(Boolean));
}

/**
 * Makes the page speak `language` before it renders: its words in place of English, and the
 * document's `lang` and `dir`. Words that cannot be loaded (offline, before the app was
 * installed) leave the page in English rather than blank.
 */
export async function speak(language: Language): Promise<void> {
  let spoken: Language = SOURCE_LANGUAGE;
  if (language !== SOURCE_LANGUAGE) {
    const load = LOCALES[`../../shared/i18n/locales/${language}.json`];
    try {
      if (load) {
        speakTranslation(await load());
        spoken = language;
      }
    } catch {
      // English stays.
    }
  }
  setCurrentLanguage(spoken);
  // The installed app's name in this language (the build writes one manifest per language).
  const manifest = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (manifest && spoken !== SOURCE_LANGUAGE) manifest.href = `/manifest-${spoken}.webmanifest`;
  document.documentElement.lang = spoken;
  document.documentElement.dir = directionOf(spoken);
}

/** Whether the page is written right to left: "forward" is then to the left. */
export function isRightToLeft(): boolean {
  return document.documentElement.dir === "rtl";
}

/** Whether this page speaks a language of its own, which the footer's switcher does not change. */
export function hasPageLanguage(): boolean {
  return isLanguage(embeddedPageLanguage());
}

/** Reloads the page: it then speaks what the server names for it. */
export function reloadPage() {
  window.location.reload();
}

/** Remembers a choice in this browser and reloads the page in it. */
export function switchLanguage(language: Language) {
  try {
    localStorage.setItem(CHOICE_KEY, language);
  } catch {
    // Without storage the account's setting (when logged in) still carries the choice.
  }
  window.location.reload();
}
