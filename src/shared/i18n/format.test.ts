import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { formatMessage, messageArguments } from "./format";

const reference = (message: string, values: Record<string, string | number>, locale: string) =>
  String(new IntlMessageFormat(message, locale).format(values));

describe("ICU messages", () => {
  const cases: [string, Record<string, string | number>, string][] = [
    ["{name} asks: {question}", { name: "Lucas", question: "Where?" }, "en"],
    ["{count, plural, one {# memory} other {# memories}}", { count: 1 }, "en"],
    ["{count, plural, one {# memory} other {# memories}}", { count: 1200 }, "en"],
    ["{count, plural, =0 {No comments} one {1 comment} other {# comments}}", { count: 0 }, "en"],
    [
      "{count, plural, zero {لا قصص} one {قصة واحدة} two {قصتان} few {# قصص} many {# قصة} other {# قصة}}",
      { count: 3 },
      "ar",
    ],
    [
      "{count, plural, zero {لا قصص} one {قصة واحدة} two {قصتان} few {# قصص} many {# قصة} other {# قصة}}",
      { count: 11 },
      "ar",
    ],
    ["{count, plural, one {# Erinnerung} other {# Erinnerungen}}", { count: 2 }, "de"],
    ["{count, plural, one {# souvenir} other {# souvenirs}}", { count: 0 }, "fr"],
    ["{role, select, relative {listens} other {tells}}", { role: "relative" }, "en"],
    ["{role, select, relative {listens} other {tells}}", { role: "storyteller" }, "en"],
    ["You're here, it''s '{'braces'}' and #", {}, "en"],
    ["{count, plural, other {'#' is # and {name}}}", { count: 5, name: "Rose" }, "en"],
    ["{n, number} of {total, number}", { n: 1234, total: 5 }, "es"],
  ];
  it.each(cases)("writes %s as FormatJS does", (message, values, locale) => {
    expect(formatMessage(message, values, locale)).toBe(reference(message, values, locale));
  });

  it("names a message's values, and refuses what it cannot read", () => {
    expect(
      messageArguments("{name} has {count, plural, one {# story} other {# by {teller}}}"),
    ).toEqual(["count", "name", "teller"]);
    expect(() => formatMessage("{name")).toThrow(SyntaxError);
    expect(() => formatMessage("{count, plural, one {#}}", { count: 1 })).toThrow(SyntaxError);
    expect(() => formatMessage("a } b")).toThrow(SyntaxError);
    expect(() => formatMessage("{name}")).toThrow(/no value/);
  });
});
