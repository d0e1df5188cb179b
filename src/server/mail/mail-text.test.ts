import { describe, expect, it } from "vitest";
import { mailLine } from "./mail-text";

describe("mailLine", () => {
  it("collapses line breaks and control characters to one space, keeping the words", () => {
    expect(mailLine("Grandma\nRose")).toBe("Grandma Rose");
    expect(mailLine("Rose \r\n\r\n Click here: http://x.example")).toBe(
      "Rose Click here: http://x.example",
    );
    expect(mailLine("a\u2028b\u2029c\u0085d\te\u0000f\u001bg\u007fh")).toBe("a b c d e f g h");
    expect(mailLine("\nOur first car\n")).toBe("Our first car");
  });

  it("leaves an ordinary name or title as it is", () => {
    for (const text of ["Grandma Rose", "L'été à Nice, 1962", "Oma's  garden 🌷", ""]) {
      expect(mailLine(text)).toBe(text);
    }
  });
});
