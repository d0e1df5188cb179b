import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_TAGS } from "./constants";
import {
  addTag,
  isValidGeneratedTag,
  normalizeScores,
  normalizeTags,
  validateGeneratedTags,
} from "./rules";

describe("tag rules, for any input", () => {
  it("addTag keeps at most 5 trimmed, non-blank, distinct tags", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 20 }), (inputs) => {
        let tags: string[] = [];
        for (const input of inputs) {
          const result = addTag(tags, input);
          if (result.ok) tags = result.tags;
          else if (result.reason === "duplicate") expect(tags).toContain(input.trim());
          else if (result.reason === "max") expect(tags.length).toBe(MAX_TAGS);
          else expect(input.trim()).toBe("");
        }
        expect(tags.length).toBeLessThanOrEqual(MAX_TAGS);
        expect(new Set(tags).size).toBe(tags.length);
        for (const tag of tags) expect(tag).toBe(tag.trim());
        for (const tag of tags) expect(tag).not.toBe("");
      }),
    );
  });

  it("normalizeTags returns clean tags or null, never more than 5", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 10 }), { maxLength: 12 }), (inputs) => {
        const result = normalizeTags(inputs);
        if (result === null) {
          expect(new Set(inputs.map((t) => t.trim()).filter(Boolean)).size).toBeGreaterThan(
            MAX_TAGS,
          );
          return;
        }
        expect(result.length).toBeLessThanOrEqual(MAX_TAGS);
        expect(new Set(result).size).toBe(result.length);
        expect(result.every((t) => t !== "" && t === t.trim())).toBe(true);
      }),
    );
  });

  it("validateGeneratedTags accepts exactly the valid triples", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        let accepted: string[] | null = null;
        try {
          accepted = validateGeneratedTags(value);
        } catch (error) {
          expect((error as Error).message).toBe("Invalid tag format");
        }
        if (accepted) {
          expect(accepted).toHaveLength(3);
          expect(accepted.every(isValidGeneratedTag)).toBe(true);
          expect(new Set(accepted).size).toBe(3);
        }
      }),
    );
  });

  it("generated tags built from lowercase words always pass", () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    const tag = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));
    fc.assert(
      fc.property(fc.uniqueArray(tag, { minLength: 3, maxLength: 3 }), (tags) => {
        expect(validateGeneratedTags(tags)).toEqual(tags);
      }),
    );
  });

  it("scores are always six integers from 1 to 10", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const scores = normalizeScores(value);
        expect(Object.keys(scores)).toHaveLength(6);
        for (const score of Object.values(scores)) {
          expect(Number.isInteger(score)).toBe(true);
          expect(score).toBeGreaterThanOrEqual(1);
          expect(score).toBeLessThanOrEqual(10);
        }
      }),
    );
  });
});
