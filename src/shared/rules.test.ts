import { describe, expect, it } from "vitest";
import { extensionForAudioType } from "./audio-types";
import { MAX_TAGS } from "./constants";
import {
  commentCountLabel,
  ERROR_MESSAGES,
  failedSaveMemoryDescription,
  MEMORY_BOOK,
  MESSAGES,
  tagsUsedLabel,
} from "./messages";
import { RELATIVES } from "./relatives";
import {
  addTag,
  estimateDuration,
  isDeleteConfirmed,
  normalizeScore,
  normalizeScores,
  normalizeTags,
  scoreBarPercent,
  titleFromSummary,
  validateGeneratedTags,
} from "./rules";
import { SHARE_MESSAGES } from "./share-links";

describe("addTag", () => {
  it("trims and appends", () => {
    expect(addTag(["a"], "  beach day ")).toEqual({ ok: true, tags: ["a", "beach day"] });
  });
  it("ignores blank input", () => {
    expect(addTag([], "   ")).toEqual({ ok: false, reason: "blank" });
  });
  it("refuses past the limit", () => {
    const full = Array.from({ length: MAX_TAGS }, (_, i) => `t${i}`);
    expect(addTag(full, "new")).toEqual({ ok: false, reason: "max" });
  });
  it("refuses exact duplicates but not case variants", () => {
    expect(addTag(["Beach"], "Beach")).toEqual({ ok: false, reason: "duplicate" });
    expect(addTag(["Beach"], "beach")).toEqual({ ok: true, tags: ["Beach", "beach"] });
  });
});

describe("normalizeTags", () => {
  it("trims, drops blanks and duplicates", () => {
    expect(normalizeTags([" a ", "", "a", "b"])).toEqual(["a", "b"]);
  });
  it("returns null over the limit", () => {
    expect(normalizeTags(["1", "2", "3", "4", "5", "6"])).toBeNull();
  });
});

describe("validateGeneratedTags", () => {
  it("accepts three lowercase tags of up to three words", () => {
    expect(validateGeneratedTags(["family", "beach day", "first big wave"])).toEqual([
      "family",
      "beach day",
      "first big wave",
    ]);
  });
  it("accepts lowercase words of the transcript's language, accents included", () => {
    expect(validateGeneratedTags(["cumpleaños", "primeros pasos", "kühe"])).toEqual([
      "cumpleaños",
      "primeros pasos",
      "kühe",
    ]);
  });
  it.each([
    [["a", "b", "Kühe"]],
    [["a", "b", "año!"]],
    [["a", "b", "c-d"]],
    [["a", "b"]],
    [["a", "b", "c", "d"]],
    [["a", "b", "B"]],
    [["a", "b", "four word long tag"]],
    [["a", "b", "b"]],
    [["a", "b", "c!"]],
    [["a", "b", ""]],
    [["a", "b", " c"]],
    ["family, beach, fun"],
    [["a", "b", 3]],
  ])("rejects %j with 'Invalid tag format'", (value) => {
    expect(() => validateGeneratedTags(value)).toThrow(MESSAGES.invalidTagFormat);
  });
});

describe("scores", () => {
  it.each([
    [7, 7],
    [7.4, 7],
    ["8", 8],
    [0, 5],
    [11, 5],
    [null, 5],
    ["x", 5],
    [Number.NaN, 5],
  ])("normalizeScore(%j) = %j", (input, expected) => {
    expect(normalizeScore(input)).toBe(expected);
  });
  it("fills every dimension", () => {
    expect(normalizeScores({ cuteness: 9, bogus: 3 })).toEqual({
      meaningfulness: 5,
      cuteness: 9,
      excitement: 5,
      interest: 5,
      uniqueness: 5,
      overall: 5,
    });
  });
  it("scales bars x10", () => {
    expect(scoreBarPercent(7)).toBe(70);
  });
});

describe("small rules", () => {
  it("titles a memory with the first sentence of its summary", () => {
    expect(titleFromSummary("What a day it was! We went to the sea. ")).toBe("What a day it was!");
    expect(titleFromSummary("No punctuation here")).toBe("No punctuation here");
    expect(titleFromSummary("Dr.Smith said hi. Then left.")).toBe("Dr.Smith said hi.");
    expect(titleFromSummary("今天你第一次走路。我们都鼓掌了。")).toBe("今天你第一次走路。");
    expect(titleFromSummary("هل تتذكر البحر؟ كان يومًا جميلًا.")).toBe("هل تتذكر البحر؟");
  });
  it("estimates duration as bytes / 16000", () => {
    expect(estimateDuration(48000)).toBe(3);
  });
  it("confirms delete in any case", () => {
    expect(isDeleteConfirmed("DeLeTe")).toBe(true);
    expect(isDeleteConfirmed("delet")).toBe(false);
  });
  it("maps audio types to extensions", () => {
    expect(extensionForAudioType("audio/webm;codecs=opus")).toBe("webm");
    expect(extensionForAudioType("audio/mp4")).toBe("m4a");
    expect(extensionForAudioType("audio/x-m4a")).toBe("m4a");
    expect(extensionForAudioType("audio/mpeg")).toBe("mp3");
    expect(extensionForAudioType("audio/ogg;codecs=opus")).toBe("ogg");
    expect(extensionForAudioType("audio/wav")).toBe("wav");
  });
  it("labels counts", () => {
    expect(commentCountLabel(0)).toBe("No comments");
    expect(commentCountLabel(1)).toBe("1 comment");
    expect(commentCountLabel(4)).toBe("4 comments");
    expect(tagsUsedLabel(3, 5)).toBe("3/5 tags used");
  });
  it("says 'try again' once when the code's words already say what to do", () => {
    expect(failedSaveMemoryDescription("too_many_requests")).toBe(MESSAGES.tooManyRequests);
    expect(failedSaveMemoryDescription("internal_error")).toBe(MESSAGES.internalError);
    expect(failedSaveMemoryDescription("memory.daily_limit")).toBe(
      ERROR_MESSAGES["memory.daily_limit"],
    );
    expect(failedSaveMemoryDescription("audio.too_short")).toBe(
      `${ERROR_MESSAGES["audio.too_short"]}. Please try again.`,
    );
    expect(failedSaveMemoryDescription("photo.too_many")).toBe(
      `${ERROR_MESSAGES["photo.too_many"]} Please try again.`,
    );
  });
});

describe("words families understand", () => {
  it("every product message in the shared catalogue reads as the product's words", () => {
    const catalogues = [MESSAGES, MEMORY_BOOK, SHARE_MESSAGES, RELATIVES];
    for (const catalogue of catalogues) {
      for (const entry of Object.values(catalogue)) {
        // A word, a function of a name, or a set of words (the book's paper sizes).
        const texts: unknown[] =
          typeof entry === "function"
            ? [entry("Grandma Rose")]
            : typeof entry === "object"
              ? Object.values(entry)
              : [entry];
        for (const text of texts) {
          expect(text, String(text)).toEqual(expect.any(String));
          expect(text, String(text)).not.toMatch(/^\d{3}:|Internal Server Error|SQLITE_|FST_ERR/);
        }
      }
    }
  });
});
