import { describe, expect, it } from "vitest";
import { formatDate, monthNames } from "./dates";

const JUNE_FIRST = "2024-06-01T14:31:00.000Z";

describe("formatDate", () => {
  it("writes a date and time as the product's English does, on the given wall clock", () => {
    expect(formatDate(JUNE_FIRST, "dateTime", { timeZone: "UTC" })).toBe("June 1, 2024 at 2:31 PM");
    expect(formatDate(JUNE_FIRST, "dateTime", { timeZone: "America/New_York" })).toBe(
      "June 1, 2024 at 10:31 AM",
    );
  });

  it("writes midnight and noon as 12, before and after noon", () => {
    const at = (time: string) =>
      formatDate(`2025-01-31T${time}:00Z`, "dateTime", { timeZone: "UTC" });
    expect(at("00:00")).toBe("January 31, 2025 at 12:00 AM");
    expect(at("12:00")).toBe("January 31, 2025 at 12:00 PM");
    expect(at("23:59")).toBe("January 31, 2025 at 11:59 PM");
  });

  it("writes a day alone, and the day changes with the time zone", () => {
    expect(formatDate("2019-03-02T23:30:00Z", "date", { timeZone: "UTC" })).toBe("March 2, 2019");
    expect(formatDate("2019-03-02T23:30:00Z", "date", { timeZone: "Europe/Berlin" })).toBe(
      "March 3, 2019",
    );
  });

  it("writes the time in the reader's zone when none is given", () => {
    const date = new Date(2024, 5, 1, 14, 31);
    expect(formatDate(date, "dateTime")).toBe("June 1, 2024 at 2:31 PM");
  });

  it("writes another language when asked", () => {
    expect(formatDate(JUNE_FIRST, "date", { timeZone: "UTC", locale: "es" })).toBe(
      "1 de junio de 2024",
    );
  });

  it("shows nothing for a date it cannot read", () => {
    expect(formatDate("not a date", "dateTime")).toBe("");
    expect(formatDate(new Date(Number.NaN), "date")).toBe("");
  });
});

describe("monthNames", () => {
  it("lists the twelve months, January first", () => {
    const months = monthNames();
    expect(months).toHaveLength(12);
    expect(months[0]).toBe("January");
    expect(months[11]).toBe("December");
  });
});
