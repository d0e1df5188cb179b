import { describe, expect, it, vi } from "vitest";
import { REMINDER_MESSAGES } from "../../../shared/reminder-messages";
import { groupTimeZones, TimeZoneList } from "./time-zones";

const WINTER = new Date("2026-01-15T12:00:00Z");
const SUMMER = new Date("2026-07-15T12:00:00Z");
const ZONES = [
  "Europe/Madrid",
  "America/New_York",
  "Asia/Kolkata",
  "America/Argentina/Buenos_Aires",
  "America/St_Johns",
  "Europe/Berlin",
];

const labels = (groups: ReturnType<typeof groupTimeZones>) =>
  groups.map((group) => [group.label, group.options.map((o) => `${o.value} ${o.label}`)]);

describe("the time zone list", () => {
  it("names each zone by its city and its offset now, the browser's first, the rest by region", () => {
    expect(labels(groupTimeZones(ZONES, "Europe/Berlin", WINTER))).toEqual([
      [REMINDER_MESSAGES.yourTimeZone, ["Europe/Berlin Berlin (UTC+01:00)"]],
      [
        "Americas",
        [
          "America/Argentina/Buenos_Aires Buenos Aires, Argentina (UTC-03:00)",
          "America/New_York New York (UTC-05:00)",
          "America/St_Johns St Johns (UTC-03:30)",
        ],
      ],
      ["Asia", ["Asia/Kolkata Kolkata (UTC+05:30)"]],
      ["Europe", ["Europe/Madrid Madrid (UTC+01:00)"]],
      [REMINDER_MESSAGES.otherTimeZones, ["UTC UTC (UTC+00:00)"]],
    ]);
  });

  it("gives summer time in summer", () => {
    const groups = groupTimeZones(ZONES, "UTC", SUMMER);
    const all = groups.flatMap((group) => group.options);
    expect(all.find((o) => o.value === "Europe/Madrid")?.label).toBe("Madrid (UTC+02:00)");
    expect(all.find((o) => o.value === "America/New_York")?.offsetMinutes).toBe(-240);
    // Each zone once: the browser's is not repeated in its region.
    expect(groups[0]?.options.map((o) => o.value)).toEqual(["UTC"]);
    expect(all.filter((o) => o.value === "UTC")).toHaveLength(1);
  });

  it("is worked out once per page, and still offers a saved zone the browser does not list", () => {
    const browserZone = vi.fn(() => "Europe/Madrid");
    const list = new TimeZoneList(browserZone, () => WINTER);
    const first = list.groupsWith("Europe/Madrid");
    expect(first.flatMap((g) => g.options).length).toBeGreaterThan(300);
    expect(first[0]?.options[0]?.label).toBe("Madrid (UTC+01:00)");
    expect(list.groupsWith("America/New_York")).toBe(first);
    expect(browserZone).toHaveBeenCalledTimes(1);
    // An old alias, saved before: offered too, so the select shows what is saved.
    const withAlias = list.groupsWith("US/Eastern");
    expect(withAlias.at(-1)?.options.map((o) => o.label)).toContain("Eastern (UTC-05:00)");
  });
});
