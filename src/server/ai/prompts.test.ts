import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../shared/i18n/languages";
import { languageInstruction, PROMPTS } from "./prompts";

describe("the language a provider is told to write in", () => {
  it("names each of the product's languages, by the speech engine's code or the product's", () => {
    const names = {
      en: "English",
      es: "Spanish",
      fr: "French",
      de: "German",
      pt: "Portuguese",
      zh: "Chinese",
      ar: "Arabic",
    };
    for (const [code, name] of Object.entries(names)) {
      expect(languageInstruction(code)).toBe(`The transcript is in ${name}: write in ${name}.`);
    }
    for (const language of LANGUAGES) {
      expect(languageInstruction(language)).toMatch(/^The transcript is in [A-Z][^:]+: write in /);
    }
  });

  it("asks for the transcript's own language when the engine did not say", () => {
    expect(PROMPTS.summarySystem()).toContain("Write in the language of the transcript.");
    expect(PROMPTS.tagsSystem(new Date(0))).toContain("Write in the language of the transcript.");
    expect(PROMPTS.summarySystem("zh")).toContain("write in Chinese.");
  });
});
