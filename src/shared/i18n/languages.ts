/** The languages the product speaks; English holds the spec's words and is every other's source. */
export const LANGUAGES = ["en", "es", "fr", "de", "pt-BR", "zh-CN", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];
export const SOURCE_LANGUAGE: Language = "en";

/** Each language's name in itself, as the language switcher offers it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  "pt-BR": "Português (Brasil)",
  "zh-CN": "简体中文",
  ar: "العربية",
};

const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(["ar"]);

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** "rtl" for a language written right to left. */
export function directionOf(language: string): "ltr" | "rtl" {
  return RIGHT_TO_LEFT.has(language.split("-")[0] ?? "") ? "rtl" : "ltr";
}

/**
 * The first language of `preferred` (the browser's `navigator.languages`, or an Accept-Language
 * header's tags in order) that the product speaks: an exact tag first, then its base language
 * ("pt-PT" finds Portuguese, "zh-TW" Chinese); English when none.
 */
export function matchLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const exact = LANGUAGES.find((language) => language.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = tag.split("-")[0]?.toLowerCase();
    const related = LANGUAGES.find((language) => language.split("-")[0] === base);
    if (related) return related;
  }
  return SOURCE_LANGUAGE;
}

/** An Accept-Language header's tags, by preference. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.split("=")[1] ?? 1);
      return { tag: tag.trim(), q: Number.isNaN(q) ? 0 : q, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

let pageLanguage: Language = SOURCE_LANGUAGE;

/**
 * The language this browser page speaks, chosen once before it renders; words and dates written
 * without a language use it. The server never sets it: it names the reader's language each time.
 */
export function currentLanguage(): Language {
  return pageLanguage;
}

export function setCurrentLanguage(language: Language) {
  pageLanguage = language;
}

/** The locale Intl writes a language's dates in: English keeps the spec's American dates. */
export function intlLocale(language: string): string {
  return language === "en" ? "en-US" : language;
}
