import { readFileSync } from "node:fs";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it, vi } from "vitest";
import { ALL_CATALOGUES } from "./all-catalogues";
import { APP_CATALOGUES, translated } from "./catalogues";
import { flatten, translationProblems } from "./check";
import { formatMessage, messageArguments } from "./format";
import { LANGUAGES, SOURCE_LANGUAGE } from "./languages";
import { translateInPlace } from "./page-words";

const TRANSLATED = LANGUAGES.filter((language) => language !== SOURCE_LANGUAGE);
const fileOf = (language: string): unknown =>
  JSON.parse(readFileSync(new URL(`./locales/${language}.json`, import.meta.url), "utf8"));

/** Sample values for a message's arguments: numbers where ICU counts, a name otherwise. */
function sampleValues(message: string, count: number): Record<string, string | number> {
  return Object.fromEntries(
    messageArguments(message).map((name) => [
      name,
      /\{\s*\w+\s*,\s*(plural|number)/.test(message) &&
      new RegExp(`\\{\\s*${name}\\s*,\\s*(plural|number)`).test(message)
        ? count
        : name === "role"
          ? "storyteller"
          : `«${name}»`,
    ]),
  );
}

describe("the catalogues", () => {
  it.each(TRANSLATED)(
    "%s has every word English has, no other, with the same values",
    (language) => {
      expect(translationProblems(ALL_CATALOGUES, fileOf(language))).toEqual({
        missing: [],
        extra: [],
        mismatched: [],
      });
    },
  );

  it.each(LANGUAGES)(
    "every %s message reads as FormatJS reads it, for 0, 1, 2, 5 and 21",
    (language) => {
      const words =
        language === SOURCE_LANGUAGE
          ? ALL_CATALOGUES
          : translated(ALL_CATALOGUES, fileOf(language));
      for (const [path, message] of flatten(words)) {
        for (const count of [0, 1, 2, 5, 21]) {
          const values = sampleValues(message, count);
          const reference = String(new IntlMessageFormat(message, language).format(values));
          expect(formatMessage(message, values, language), `${language} ${path}`).toBe(reference);
        }
      }
    },
  );

  it("a plural with a language's own categories chooses them (Arabic's two)", () => {
    const ar = translated(ALL_CATALOGUES, fileOf("ar"));
    const two = formatMessage(ar.MESSAGES.commentCount, { count: 2 }, "ar");
    const five = formatMessage(ar.MESSAGES.commentCount, { count: 5 }, "ar");
    expect(two).not.toBe(five);
    expect(two).not.toContain("2");
  });

  it("putting a language in place changes a catalogue itself, lists and nested words included", () => {
    const english = structuredClone(APP_CATALOGUES);
    const spanish = fileOf("es") as typeof english;
    const copy = structuredClone(english);
    for (const [name, catalogue] of Object.entries(copy)) {
      translateInPlace(catalogue, spanish[name as keyof typeof spanish]);
    }
    expect(copy.MESSAGES.homeHeader).toBe(spanish.MESSAGES.homeHeader);
    expect(copy.MEMORY_BOOK.paperSizes.a4).toBe(spanish.MEMORY_BOOK.paperSizes.a4);
    expect(copy.QUESTIONS[3]).toBe(spanish.QUESTIONS[3]);
    expect(copy.QUESTIONS).toHaveLength(english.QUESTIONS.length);
    // A word a language lacks stays English.
    const partial = structuredClone(english.MESSAGES);
    translateInPlace(partial, { homeHeader: "x" });
    expect(partial.homeHeader).toBe("x");
    expect(partial.startRecording).toBe(english.MESSAGES.startRecording);
  });

  it("a catalogue registered after the language arrived (a later chunk) speaks it at once", async () => {
    vi.resetModules();
    const { speakTranslation, translatable } = await import("./page-words");
    const early = translatable("EARLY", { hello: "Hello" });
    speakTranslation({ EARLY: { hello: "Hola" }, LATE: { bye: "Adiós" } });
    const late = translatable("LATE", { bye: "Bye", left: "Left" });
    expect(early.hello).toBe("Hola");
    expect(late).toEqual({ bye: "Adiós", left: "Left" });
  });

  it("finds what a language lacks, has too many of, or asks other values for", () => {
    const english = { A: { hello: "Hello, {name}", bye: "Bye" }, Q: ["one", "two"] };
    expect(
      translationProblems(english, { A: { hello: "Hola, {nombre}", extra: "x" }, Q: ["uno"] }),
    ).toEqual({ missing: ["A.bye", "Q.1"], extra: ["A.extra"], mismatched: ["A.hello"] });
  });
});
