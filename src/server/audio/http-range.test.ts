import { describe, expect, it } from "vitest";
import { parseRange } from "./http-range";

describe("parseRange", () => {
  it.each([
    [undefined, "none"],
    ["items=0-5", "none"],
    ["bytes=0-1,5-6", "none"],
    ["bytes=0-99", { start: 0, end: 99 }],
    ["bytes=10-", { start: 10, end: 999 }],
    ["bytes=-100", { start: 900, end: 999 }],
    ["bytes=-5000", { start: 0, end: 999 }],
    ["bytes=990-5000", { start: 990, end: 999 }],
    ["bytes=1000-", "unsatisfiable"],
    ["bytes=5-4", "unsatisfiable"],
    ["bytes=-0", "unsatisfiable"],
    ["bytes=-", "unsatisfiable"],
    ["bytes=abc", "unsatisfiable"],
  ])("%s on 1000 bytes gives %j", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});
