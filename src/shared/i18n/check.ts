import { messageArguments } from "./format";

/** Every word of a catalogue set by its path ("MESSAGES.homeHeader", "QUESTIONS.12"). */
export function flatten(node: unknown, prefix = ""): Map<string, string> {
  const words = new Map<string, string>();
  if (typeof node === "string") {
    words.set(prefix, node);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      for (const [path, word] of flatten(value, prefix ? `${prefix}.${key}` : key)) {
        words.set(path, word);
      }
    }
  }
  return words;
}

export interface TranslationProblems {
  /** English words the language does not have yet. */
  missing: string[];
  /** Words for keys English no longer has. */
  extra: string[];
  /** Words that ask for other values than English's (or that are not valid ICU messages). */
  mismatched: string[];
}

function argumentsOf(message: string): string | null {
  try {
    return messageArguments(message).join(",");
  } catch {
    return null;
  }
}

/** What a language file lacks, has too many of, or gets wrong, against English. */
export function translationProblems(english: unknown, translation: unknown): TranslationProblems {
  const source = flatten(english);
  const words = flatten(translation);
  const missing = [...source.keys()].filter((path) => !words.has(path));
  const extra = [...words.keys()].filter((path) => !source.has(path));
  const mismatched = [...words]
    .filter(([path, word]) => {
      const englishWord = source.get(path);
      if (englishWord === undefined) return false;
      const wanted = argumentsOf(englishWord);
      return wanted !== null && argumentsOf(word) !== wanted;
    })
    .map(([path]) => path);
  return { missing, extra, mismatched };
}
