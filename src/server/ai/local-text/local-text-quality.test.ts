import { describe, expect, it } from "vitest";
import { titleFromSummary, validateGeneratedTags } from "../../../shared/rules";
import { QUALITY_SET } from "../../test/local-text-quality-set";
import { LocalTextModel } from "../providers/local-text-model";
import { isStopWord, MONTHS } from "./languages";

const model = new LocalTextModel();
const now = new Date("2026-11-22T12:00:00.000Z");

/** A crude lemma, independent of the model's own: plural and inflection endings off. */
function lemma(word: string): string {
  return word.length > 4 ? word.replace(/(es|en|s|e|n)$/, "") : word;
}

const results = await Promise.all(
  QUALITY_SET.map(async (item) => {
    const summary = await model.summarize(item.transcript);
    return {
      ...item,
      summary,
      title: titleFromSummary(summary),
      scores: await model.score(item.transcript),
      tags: await model.tags(item.transcript, now),
    };
  }),
);

describe("the local text model over the quality set", () => {
  it("holds at least 20 transcripts of every kind, in English, Spanish and German", () => {
    expect(QUALITY_SET.length).toBeGreaterThanOrEqual(20);
    for (const language of ["en", "es", "de"]) {
      expect(QUALITY_SET.some((item) => item.language === language)).toBe(true);
    }
    for (const kind of ["noise", "one-line", "story"]) {
      expect(QUALITY_SET.some((item) => item.kind === kind)).toBe(true);
    }
  });

  it("gives every memory a title of its own (no two share their first 20 characters)", () => {
    const openings = results.map((r) => r.title.slice(0, 20).toLowerCase());
    const shared = openings.filter((o, i) => openings.indexOf(o) !== i);
    expect(shared).toEqual([]);
    for (const r of results) expect(r.summary.startsWith(r.title)).toBe(true);
  });

  it("never tags a month or a year when the transcript has topics", () => {
    const months = new Set(Object.values(MONTHS).flat());
    for (const r of results.filter((item) => item.kind !== "noise")) {
      for (const tag of r.tags) {
        expect(months.has(tag), `${r.name}: ${tag}`).toBe(false);
        expect(/^(19|20)\d\d$/.test(tag), `${r.name}: ${tag}`).toBe(false);
      }
    }
  });

  it("gives 3 valid tags with no repeated lemma and no stop word of any language", () => {
    for (const r of results) {
      expect(validateGeneratedTags(r.tags)).toEqual(r.tags);
      const lemmas = r.tags.flatMap((tag) => tag.split(" ").map(lemma));
      expect(new Set(lemmas).size, `${r.name}: ${r.tags.join(", ")}`).toBe(lemmas.length);
      if (r.kind === "noise") continue;
      for (const tag of r.tags) {
        // A stop word may sit inside a longer tag ("tarta de chocolate"), never be the tag.
        expect(isStopWord(tag), `${r.name}: ${tag}`).toBe(false);
      }
    }
  });

  it("keeps every summary shorter than its transcript; a one-line memory is at most its own summary", () => {
    for (const r of results) {
      expect(r.summary.length, r.name).toBeLessThanOrEqual(r.transcript.trim().length);
      if (r.kind === "story") {
        expect(r.summary.length, r.name).toBeLessThan(r.transcript.trim().length);
      }
    }
    // The long ones are summarised, not copied.
    for (const r of results.filter((item) => item.transcript.length > 400)) {
      expect(r.summary.length, r.name).toBeLessThan(r.transcript.length / 2);
    }
  });

  it("writes in the transcript's language", () => {
    for (const r of results.filter((item) => item.language === "es" && item.kind === "story")) {
      expect(r.summary, r.name).toMatch(/te quiero/i);
    }
    for (const r of results.filter((item) => item.language === "de" && item.kind === "story")) {
      expect(r.summary, r.name).toMatch(/hab dich .*lieb/i);
    }
    for (const r of results.filter((item) => item.language !== "en")) {
      expect(r.summary, r.name).not.toMatch(/\b(the|love|you)\b/i);
    }
  });

  it("spreads the overall score: noise lowest, long moving stories highest, 4 points or more apart", () => {
    const overall = results.map((r) => r.scores.overall);
    expect(Math.max(...overall) - Math.min(...overall)).toBeGreaterThanOrEqual(4);
    const of = (kind: string) =>
      results.filter((r) => r.kind === kind).map((r) => r.scores.overall);
    expect(Math.max(...of("noise"))).toBeLessThan(Math.min(...of("one-line")));
    expect(Math.max(...of("one-line"))).toBeLessThanOrEqual(Math.min(...of("story")));
    const war = results.find((r) => r.name === "grandma's war story");
    expect(war?.scores.overall).toBeGreaterThanOrEqual(8);
  });
});
