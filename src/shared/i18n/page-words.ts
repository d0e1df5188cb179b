import type { Translation } from "./catalogues";

/**
 * The browser's catalogues, each registered by its module as it loads: a page speaks one language,
 * and its words are put into every catalogue in place, before the first render for the ones loaded
 * with the page and as soon as a later chunk brings its own. Only the modules a page loads are
 * touched, so a catalogue stays in the chunk that uses it.
 */
const registered = new Map<string, object>();
let pageTranslation: Translation | null = null;

/** `words` put into `catalogue` itself; what `words` lacks stays English. */
export function translateInPlace(catalogue: object, words: unknown) {
  if (Array.isArray(catalogue)) {
    if (!Array.isArray(words)) return;
    catalogue.forEach((english, index) => {
      const word = words[index];
      if (typeof english === "string" && typeof word === "string") catalogue[index] = word;
    });
    return;
  }
  if (!words || typeof words !== "object") return;
  const target = catalogue as Record<string, unknown>;
  for (const [key, english] of Object.entries(target)) {
    const word = (words as Record<string, unknown>)[key];
    if (typeof english === "string") {
      if (typeof word === "string") target[key] = word;
    } else if (english && typeof english === "object") {
      translateInPlace(english, word);
    }
  }
}

/** Registers a catalogue the browser shows under `name` (its name in the language files). */
export function translatable<T extends object>(name: string, catalogue: T): T {
  registered.set(name, catalogue);
  if (pageTranslation) translateInPlace(catalogue, pageTranslation[name]);
  return catalogue;
}

/** Puts a language's words into every catalogue registered now or later. */
export function speakTranslation(translation: Translation) {
  pageTranslation = translation;
  for (const [name, catalogue] of registered) translateInPlace(catalogue, translation[name]);
}
