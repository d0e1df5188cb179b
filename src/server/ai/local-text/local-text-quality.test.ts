import { describe, expect, it } from "vitest";
import { titleFromSummary, validateGeneratedTags } from "../../../shared/rules";
import { QUALITY_SET } from "../../test/local-text-quality-set";
import { LocalTextModel } from "../providers/local-text-model";
import {
  CLOSINGS,
  detectLanguage,
  FAMILY_TAG,
  isStopWord,
  LOCAL_LANGUAGES,
  type LocalLanguage,
  MONTHS,
  SAYS_LOVE,
} from "./languages";

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
  it("holds at least 20 transcripts of every kind, in each of the seven languages", () => {
    expect(QUALITY_SET.length).toBeGreaterThanOrEqual(20);
    for (const language of LOCAL_LANGUAGES) {
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

/** What each language's writing is made of: Chinese and Arabic in their own script only. */
const SCRIPT: Record<LocalLanguage, RegExp> = {
  en: /^[a-z0-9 ]+$/,
  es: /^[\p{Script=Latin}0-9 ]+$/u,
  fr: /^[\p{Script=Latin}0-9 ]+$/u,
  de: /^[\p{Script=Latin}0-9 ]+$/u,
  pt: /^[\p{Script=Latin}0-9 ]+$/u,
  zh: /^[\p{Script=Han}0-9]+$/u,
  ar: /^[\p{Script=Arabic}0-9 ]+$/u,
};
/** Words that show an English sentence or filler got into another language's summary. */
const ENGLISH = /(?<!\p{L})(the|and|you|love|uh|today|family|memories)(?!\p{L})/iu;

describe("the local text model in each of the seven languages, as in English", () => {
  const stories = (language: LocalLanguage) =>
    results.filter((r) => r.language === language && r.kind === "story");

  it("has a grandmother's kitchen and at least two stories in every language", () => {
    for (const language of LOCAL_LANGUAGES) {
      expect(stories(language).length, language).toBeGreaterThanOrEqual(2);
      expect(
        stories(language).some((r) =>
          /kitchen|cocina|küche|cuisine|cozinha|厨房|مطبخ/i.test(r.name),
        ),
        language,
      ).toBe(true);
    }
  });

  it("tells the seven apart on every transcript of the set", () => {
    for (const r of results) expect(detectLanguage(r.transcript), r.name).toBe(r.language);
  });

  it("closes every story with its language's own words of love (or the recorder's)", () => {
    for (const language of LOCAL_LANGUAGES) {
      for (const r of stories(language)) {
        expect(SAYS_LOVE[language].test(r.summary), `${r.name}: ${r.summary}`).toBe(true);
        const closings = Object.values(CLOSINGS[language]);
        const closed = closings.some((line) => r.summary.endsWith(line));
        expect(closed || SAYS_LOVE[language].test(r.transcript), r.name).toBe(true);
      }
    }
  });

  it("writes title, summary and tags in the transcript's language and script", () => {
    for (const r of results.filter((item) => item.kind !== "noise")) {
      for (const tag of r.tags) expect(tag, `${r.name}: ${tag}`).toMatch(SCRIPT[r.language]);
      if (r.language === "en") continue;
      expect(r.summary, r.name).not.toMatch(ENGLISH);
      expect(r.tags.join(" "), r.name).not.toMatch(ENGLISH);
      if (r.language === "zh") expect(r.title, r.name).toMatch(/^\p{Script=Han}.*。$/u);
      if (r.language === "ar") expect(r.title, r.name).toMatch(/^\p{Script=Arabic}.*\.$/u);
    }
  });

  it("titles a story with one of the recorder's sentences, without the day's opening", () => {
    for (const r of results.filter((item) => item.kind === "story")) {
      expect(r.title.length, r.name).toBeLessThan(r.summary.length);
      // Punctuation and spaces aside: a Chinese engine's pause becomes a comma.
      const plain = (text: string) => text.toLowerCase().replace(/[\s\p{P}]/gu, "");
      const opening = plain(r.title).slice(0, 8);
      expect(plain(r.transcript).includes(opening), `${r.name}: ${r.title}`).toBe(true);
    }
    // "Ce matin, tu as ...", "Hoje de manhã você ...", "اليوم صباحًا مشيت ...", "今天早上你...".
    expect(byName("premiers pas").title).toBe("Tu as fait tes premiers pas dans le salon.");
    expect(byName("primeiros passos").title).toBe("Você deu seus primeiros passos na sala.");
    expect(byName("第一步").title).toBe("你在客厅里迈出了人生的第一步。");
    expect(byName("الخطوات الأولى").title).toBe("مشيت خطواتك الأولى في غرفة الجلوس.");
  });

  it("tags what the memory is about, a word of the transcript, in each language", () => {
    expect(byName("la cuisine de mamie").tags).toContain("crêpes");
    expect(byName("a cozinha da vovó").tags).toContain("avó lurdes");
    expect(byName("奶奶的厨房").tags).toEqual(expect.arrayContaining(["奶奶", "饺子", "厨房"]));
    expect(byName("مطبخ جدتي").tags).toEqual(expect.arrayContaining(["جدتي", "المطبخ"]));
    // Chinese with pauses for punctuation, as a speech engine may write it, still splits.
    expect(byName("公园和小狗").summary.split("。").filter(Boolean).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it("falls back to the month and the family in the language given, by product or engine code", async () => {
    const given = { en: "en", es: "es", fr: "fr", de: "de", pt: "pt-BR", zh: "zh-CN", ar: "ar" };
    for (const language of LOCAL_LANGUAGES) {
      const tags = await model.tags("ok", now, { language: given[language] });
      expect(tags, language).toEqual([MONTHS[language][10], "2026", FAMILY_TAG[language]]);
    }
  });
});

function byName(name: string) {
  const result = results.find((r) => r.name === name);
  if (!result) throw new Error(`no transcript named ${name}`);
  return result;
}
