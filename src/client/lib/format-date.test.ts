import { describe, expect, it } from "vitest";
import { formatRecordedAt } from "./format-date";

/** An ISO string for a wall-clock time in the test's own time zone. */
const local = (...parts: [number, number, number, number, number]) =>
  new Date(...parts).toISOString();

describe("formatRecordedAt", () => {
  it("writes the month, day, year and a 12-hour clock in the reader's time zone", () => {
    expect(formatRecordedAt(local(2024, 5, 1, 14, 31))).toBe("June 1, 2024 at 2:31 PM");
    expect(formatRecordedAt(local(2026, 11, 25, 9, 5))).toBe("December 25, 2026 at 9:05 AM");
  });

  it("writes midnight and noon as 12, before and after noon", () => {
    expect(formatRecordedAt(local(2025, 0, 31, 0, 0))).toBe("January 31, 2025 at 12:00 AM");
    expect(formatRecordedAt(local(2025, 0, 31, 12, 0))).toBe("January 31, 2025 at 12:00 PM");
    expect(formatRecordedAt(local(2025, 0, 31, 23, 59))).toBe("January 31, 2025 at 11:59 PM");
  });

  it("reads as Intl's American English would, the way it read before", () => {
    const iso = local(2023, 2, 9, 17, 4);
    const intl = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
    }).format(new Date(iso));
    // ICU writes a narrow no-break space before AM/PM; the product writes a plain one.
    expect(formatRecordedAt(iso)).toBe(intl.replace(/\s/g, " "));
  });

  it("shows nothing for a date it cannot read", () => {
    expect(formatRecordedAt("not a date")).toBe("");
  });
});
