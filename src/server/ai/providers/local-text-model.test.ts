import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCORE_DIMENSIONS } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { titleFromSummary, validateGeneratedTags } from "../../../shared/rules";
import { splitSentences } from "../local-text/analyse";
import { detectLanguage } from "../local-text/languages";
import { LocalTextModel } from "./local-text-model";

// Real transcripts of the kind families record (and rough offline-engine transcripts).
const TRANSCRIPTS = [
  "Today we went to the beach with Grandpa. You built a huge sandcastle and laughed from ear to ear! I will never forget how happy you were.",
  "This morning you took your very first steps in the kitchen. You held onto the chair, let go, and walked three wobbly steps to your dad. We all cheered and you clapped your little hands. Your dad cried a little. I am so proud of you.",
  "It was your fifth birthday and it rained all day, so we built a blanket fort in the living room, ate chocolate cake inside it and read dinosaur books until you fell asleep.",
  "the the beach we are on the oldest on fossil",
  "hello",
];

const UNPUNCTUATED =
  "so we got to lisbon really late and you were asleep in the car seat and then in the morning we took the old yellow tram up the hill and you waved at every single person and then we had custard tarts and you got cream all over your face and then we walked down to the river and watched the boats";

describe("LocalTextModel", () => {
  const model = new LocalTextModel();
  const now = new Date("2026-11-22T12:00:00.000Z");

  it.each(TRANSCRIPTS)("follows every output rule for %j", async (transcript) => {
    const summary = await model.summarize(transcript);
    const title = titleFromSummary(summary);
    expect(title.length).toBeGreaterThan(4);
    expect(summary.startsWith(title)).toBe(true);
    // Never longer than what was said.
    expect(summary.length).toBeLessThanOrEqual(transcript.length);

    const scores = await model.score(transcript);
    expect(Object.keys(scores).sort()).toEqual([...SCORE_DIMENSIONS].sort());
    for (const value of Object.values(scores)) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(1);
      expect(value).toBeLessThanOrEqual(10);
    }

    const tags = await model.tags(transcript, now);
    expect(validateGeneratedTags(tags)).toEqual(tags);
  });

  it("writes a warm summary addressed to the child, in the recorder's voice, when there is room", async () => {
    for (const transcript of TRANSCRIPTS.slice(0, 3)) {
      const summary = await model.summarize(transcript);
      expect(summary).toMatch(/\byou\b/i);
      expect(summary).toMatch(/\bI\b/);
      expect(summary).toMatch(/\blove\b/i);
      expect(summary.length).toBeLessThan(transcript.length);
    }
  });

  it("titles the memory with what happened, not a fixed opening", async () => {
    const [beach, steps] = TRANSCRIPTS;
    expect(titleFromSummary(await model.summarize(beach ?? ""))).toBe(
      "We went to the beach with Grandpa.",
    );
    expect(titleFromSummary(await model.summarize(steps ?? ""))).toBe(
      "You took your very first steps in the kitchen.",
    );
  });

  it("tags topics of up to 3 words, merging forms of a word", async () => {
    expect((await model.tags(TRANSCRIPTS[0] ?? "", now)).sort()).toEqual([
      "beach",
      "grandpa",
      "sandcastle",
    ]);
    expect(await model.tags(TRANSCRIPTS[1] ?? "", now)).toContain("first steps");
    const pancakes = await model.tags(
      "Sunday pancakes are your favourite. You ate four pancakes and asked for another pancake for your teddy. The pancake pan was hot.",
      now,
    );
    expect(pancakes.filter((tag) => /pancake/.test(tag))).toHaveLength(1);
  });

  it("never tags another language's function words", async () => {
    const tags = await model.tags(
      "Hoy zum Geburtstag we went to the lake with Oma, and the lake was cold but the cake was warm.",
      now,
    );
    for (const word of ["hoy", "zum"]) expect(tags).not.toContain(word);
    expect(tags).toContain("lake");
  });

  it("uses the month and year only when the transcript gives nothing better", async () => {
    expect(await model.tags("hello", now)).toEqual(["november", "2026", "family"]);
    // Two topics and a milestone: the kind of memory comes before the date.
    expect(await model.tags("You said your very first word today. It was doggy!", now)).toEqual([
      "first word",
      "doggy",
      "milestones",
    ]);
  });

  it("splits an unpunctuated transcript into sentences before summarizing", async () => {
    const sentences = splitSentences(UNPUNCTUATED, "en");
    expect(sentences.length).toBeGreaterThanOrEqual(4);
    for (const sentence of sentences) expect(sentence.split(" ").length).toBeLessThanOrEqual(30);
    const summary = await model.summarize(UNPUNCTUATED);
    expect(summary.length).toBeLessThan(UNPUNCTUATED.length * 0.6);
    expect(titleFromSummary(summary).split(" ").length).toBeLessThanOrEqual(16);
    expect(summary).toMatch(/^[A-Z]/);
  });

  it("gives scores that spread: noise, a one-liner and a long moving story", async () => {
    const noise = await model.score(TRANSCRIPTS[3] ?? "");
    const oneLine = await model.score("You said your very first word today. It was doggy!");
    const story = await model.score(
      `${TRANSCRIPTS[1]} Grandma Rosa came over in the afternoon and you walked to her too, and she cried and said you walk just like your grandfather did. I will never forget her face. I love you and I am so proud of the little person you are becoming, and one day when you are grown I hope you play this and remember how loved you were from your very first steps.`,
    );
    expect(noise.overall).toBeLessThan(oneLine.overall);
    expect(oneLine.overall).toBeLessThan(story.overall);
    expect(story.overall - noise.overall).toBeGreaterThanOrEqual(5);
    expect(story.meaningfulness).toBeGreaterThan(oneLine.meaningfulness);
  });

  it("writes in the transcript's language, detected or given", async () => {
    expect(detectLanguage("Hoy diste tus primeros pasos en la cocina y todos aplaudimos.")).toBe(
      "es",
    );
    expect(detectLanguage("Heute hast du deine ersten Schritte in der Küche gemacht.")).toBe("de");
    expect(detectLanguage("Today you took your first steps in the kitchen.")).toBe("en");
    // Short, close ones: Spanish and Portuguese share most function words, French and English
    // some; Chinese and Arabic keep their script around a Latin name.
    const oneLiners: [string, string][] = [
      ["fr", "on est allés au parc avec papi et tu as donné du pain aux canards"],
      ["fr", "Ta mamie a fait un gâteau au chocolat pour ton anniversaire."],
      ["pt", "a gente foi no parque com o vovô e você deu pão para os patos"],
      ["pt", "O seu avô trabalhava na roça e acordava às cinco da manhã."],
      ["es", "Tu abuelo trabajaba en el campo y se levantaba a las cinco de la mañana."],
      ["en", "we went to the park with grandpa and you fed bread to the ducks"],
      ["zh", "Emma今天第一次叫了奶奶。"],
      ["ar", "ذهبنا إلى الحديقة مع جدك Omar وأطعمت البط."],
    ];
    for (const [language, text] of oneLiners) expect(detectLanguage(text), text).toBe(language);

    const spanish =
      "Esta mañana diste tus primeros pasos en la cocina. Te soltaste de la silla y caminaste hasta los brazos de papá. Todos aplaudimos y tú te reíste muchísimo.";
    const summary = await model.summarize(spanish);
    expect(titleFromSummary(summary)).toBe("Diste tus primeros pasos en la cocina.");
    expect(summary).toMatch(/te quiero/i);
    const tags = await model.tags(spanish, now);
    expect(tags).toContain("primeros pasos");
    // Verbs ("reíste") and words of degree ("muchísimo") are not topics.
    expect(tags.join(" ")).not.toMatch(/reíste|muchísimo/);
    // German writes compounds as one word: two nouns side by side are two topics.
    expect(
      await model.tags("Du hast gefragt, ob die Kühe Namen hatten. Opa Heinrich hat gelacht.", now),
    ).not.toContain("kühe namen");
    expect(validateGeneratedTags(tags)).toEqual(tags);

    // German nouns are the capitalised words; "war", "mit", "im" are function words.
    expect((await model.tags("Papa war mit Anna im Zoo.", now)).sort()).toEqual([
      "anna",
      "papa",
      "zoo",
    ]);

    // A language given by the speech engine wins over detection ("ok" reads as English).
    expect(await model.tags("ok", now, { language: "de" })).toEqual([
      "november",
      "2026",
      "familie",
    ]);
    expect(await model.tags("ok", now, { language: "es" })).toEqual([
      "noviembre",
      "2026",
      "familia",
    ]);
  });

  it("refuses an empty transcript with the spec's message", async () => {
    await expect(model.summarize("  ")).rejects.toThrow(
      `${MESSAGES.summarizeFailedPrefix}${MESSAGES.noSummaryGenerated}`,
    );
  });

  it("stops before it starts when its signal is aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("lease lost");
    controller.abort(reason);
    await expect(model.summarize("hello there", { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });
});

describe("LocalTextModel, for any transcript", () => {
  const model = new LocalTextModel();
  const now = new Date("2026-11-22T12:00:00.000Z");
  const word = fc.oneof(
    fc.constantFrom(
      "you",
      "and",
      "then",
      "so",
      "um",
      "the",
      "beach",
      "pancakes",
      "pancake",
      "Grandpa",
      "first",
      "steps",
      "hoy",
      "zum",
      "cumpleaños",
      "Kühe",
      "2026",
      "november",
      "love",
      "cried",
      "t'aime",
      "você",
      "奶奶的厨房",
      "我们包了饺子",
      "。",
      "，",
      "جدتي",
      "والمطبخ",
      "؟",
      "!",
      ",",
      ".",
      "?",
    ),
    fc.stringMatching(/^[a-zA-Zäöüñé']{1,12}$/),
  );
  const transcript = fc
    .array(word, { minLength: 1, maxLength: 120 })
    .map((words) => words.join(" "))
    .filter((text) => text.trim().length > 0);

  it("never writes a summary longer than the transcript, and always valid tags and scores", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, async (text) => {
        const summary = await model.summarize(text);
        expect(summary.length).toBeLessThanOrEqual(text.trim().length);
        expect(summary.trim()).not.toBe("");
        const tags = await model.tags(text, now);
        expect(validateGeneratedTags(tags)).toEqual(tags);
        const scores = await model.score(text);
        for (const value of Object.values(scores)) {
          expect(Number.isInteger(value) && value >= 1 && value <= 10).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
